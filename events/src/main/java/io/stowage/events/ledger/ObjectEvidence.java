package io.stowage.events.ledger;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;

/**
 * What the ledger knows of one object in one store: the newest upload and the newest result of
 * each verification method. Part of the ledger's HTTP query API ({@code GET /api/evidence}).
 *
 * @param headResult     newest HEAD result, null if never verified
 * @param fullReadResult newest FULL_READ result, null if never re-read
 * @param uploadedEventId event id of the newest object.uploaded, null if none was seen
 * @param headEventId     event id of the object.verified (HEAD) that gave {@code headResult}, null if none
 * @param fullReadEventId event id of the object.verified (FULL_READ) that gave {@code fullReadResult}, null if none
 */
public record ObjectEvidence(String store, String bucket, String key, ObjectKind kind, long bytes, String sha256,
                             String localPath, VerifyResult headResult, VerifyResult fullReadResult,
                             String uploadedEventId, String headEventId, String fullReadEventId) {

    /** Evidence without event ids (the shape before they were exposed). */
    public ObjectEvidence(String store, String bucket, String key, ObjectKind kind, long bytes, String sha256,
                          String localPath, VerifyResult headResult, VerifyResult fullReadResult) {
        this(store, bucket, key, kind, bytes, sha256, localPath, headResult, fullReadResult, null, null, null);
    }
}
