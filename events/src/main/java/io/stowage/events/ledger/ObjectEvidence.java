package io.stowage.events.ledger;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;

/**
 * What the ledger knows of one object in one store: the newest upload and the newest result of
 * each verification method. Part of the ledger's HTTP query API ({@code GET /api/evidence}).
 *
 * @param headResult     newest HEAD result, null if never verified
 * @param fullReadResult newest FULL_READ result, null if never re-read
 */
public record ObjectEvidence(String store, String bucket, String key, ObjectKind kind, long bytes, String sha256,
                             String localPath, VerifyResult headResult, VerifyResult fullReadResult) {
}
