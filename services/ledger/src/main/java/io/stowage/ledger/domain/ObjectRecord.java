package io.stowage.ledger.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;

import java.time.Instant;

/**
 * The ledger's projection of one object in one store (unique by store, bucket, key): its newest
 * upload and the newest result of each verification method, with the event times that decide "newest".
 *
 * @param bytes      object size in bytes (from the upload, or the verifier's expectation until then)
 * @param uploadedAt event time of the newest object.uploaded, null when only verifications were seen
 * @param uploadedEventId event id of that object.uploaded (the gate's evidence), null when none
 * @param headEventId     event id of the object.verified that gave {@code headResult}, null when none
 * @param fullReadEventId event id of the object.verified that gave {@code fullReadResult}, null when none
 */
public record ObjectRecord(String store, String bucket, String key, String assetId, ObjectKind kind, long bytes,
                           String sha256, String etag, String localPath, Instant uploadedAt,
                           VerifyResult headResult, Instant headAt, VerifyResult fullReadResult,
                           Instant fullReadAt, String uploadedEventId, String headEventId, String fullReadEventId) {

    /** A record without evidence event ids. */
    public ObjectRecord(String store, String bucket, String key, String assetId, ObjectKind kind, long bytes,
                        String sha256, String etag, String localPath, Instant uploadedAt,
                        VerifyResult headResult, Instant headAt, VerifyResult fullReadResult, Instant fullReadAt) {
        this(store, bucket, key, assetId, kind, bytes, sha256, etag, localPath, uploadedAt, headResult, headAt,
                fullReadResult, fullReadAt, null, null, null);
    }

    /** @return the API shape */
    public ObjectEvidence toEvidence() {
        return new ObjectEvidence(store, bucket, key, kind, bytes, sha256, localPath, headResult, fullReadResult,
                uploadedEventId, headEventId, fullReadEventId);
    }
}
