package io.stowage.ledger.api;

import java.time.Instant;

/**
 * One line of {@code GET /api/events?assetId=}.
 *
 * @param type       CloudEvents type, e.g. {@code io.stowage.shard.built.v1}; may be null for a dead letter
 * @param time       the event's own time
 * @param deadLetter true for a record stored from a dead-letter topic
 * @param reason     why it was dead-lettered, else null
 */
public record EventSummary(String eventId, String topic, String type, Instant time, boolean deadLetter,
                           String reason) {
}
