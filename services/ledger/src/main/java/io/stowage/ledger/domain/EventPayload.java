package io.stowage.ledger.domain;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/**
 * One stored event as {@code GET /api/payloads} answers it.
 *
 * @param eventId   the event's id
 * @param eventTime the event's own time
 * @param payload   the event as it was recorded (its JSON); null when unreadable
 */
public record EventPayload(String eventId, Instant eventTime, JsonNode payload) {
}
