package io.stowage.ledger.domain;

import java.time.Instant;

/**
 * One object.upload.failed event as the ledger keeps it for the evidence of its asset.
 *
 * @param key       the object key that was being written, may be null
 * @param eventTime when the uploader reported it; evidence lists failures oldest first
 */
public record UploadFailureRecord(String eventId, String assetId, String store, String key, String reason,
                                  boolean permanent, Instant eventTime) {
}
