package io.stowage.ledger.domain;

import java.time.Instant;

/**
 * One event of {@code GET /api/events?correlationId=}, in chain order.
 *
 * @param seq        the event's place in the hash chain
 * @param type       CloudEvents type; may be null for a dead letter
 * @param time       the event's own time
 * @param causationId id of the event that caused it, null for a first event
 * @param reason     why it was dead-lettered, else null
 */
public record HistoryEntry(long seq, String eventId, String topic, String type, String assetId, String causationId,
                           Instant time, boolean deadLetter, String reason) {
}
