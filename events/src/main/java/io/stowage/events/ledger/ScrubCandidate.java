package io.stowage.events.ledger;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;

import java.time.Instant;

/**
 * One object as the rolling scrub sees it: where it is, what it should hold, and when its bytes were last
 * re-read in full. Part of the ledger's HTTP query API ({@code GET /api/coverage/due}), read by the verifier.
 *
 * @param assetId            asset the object belongs to (from its upload)
 * @param bytes              size recorded at upload, in bytes
 * @param sha256             SHA-256 recorded at upload (lower-case hex)
 * @param localPath          the local file it was uploaded from, null if unknown
 * @param uploadedAt         event time of its newest upload, null if the ledger has seen only verifications
 * @param lastFullReadAt     event time of its newest FULL_READ result (upload-time sample or scrub), null if never re-read
 * @param lastFullReadResult that result, null if never re-read
 */
public record ScrubCandidate(String store, String bucket, String key, String assetId, ObjectKind kind, long bytes,
                             String sha256, String localPath, Instant uploadedAt, Instant lastFullReadAt,
                             VerifyResult lastFullReadResult) {
}
