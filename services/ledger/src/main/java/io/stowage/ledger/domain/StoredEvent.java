package io.stowage.ledger.domain;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * One row of the ledger's append-only audit trail: a decoded event from a main topic, or a record
 * from a dead-letter topic kept with its reason. The event id is the idempotency key.
 *
 * @param type       CloudEvents type ({@code io.stowage.<topic>.v1}); for a dead letter the ce_type header, may be null
 * @param eventTime  the event's own time (dead letter: ce_time header, else the record timestamp)
 * @param recordedAt when the ledger stored it
 * @param payload    the record value as UTF-8 text, as received (NUL characters replaced by U+FFFD); null when empty
 * @param reason     why a dead letter was refused (dead-letter-reason header), null otherwise
 */
public record StoredEvent(String eventId, String topic, String type, String assetId, String correlationId,
                          String causationId, Instant eventTime, Instant recordedAt, int partition, long offset,
                          String payload, boolean deadLetter, String reason) {

    /** @return the row of a decoded event read at {@code at} */
    public static StoredEvent of(StowageEvent event, KafkaPosition at, byte[] value, Instant now) {
        return new StoredEvent(event.meta().eventId(), at.topic(), Topics.cloudEventType(event.topic()),
                event.assetId(), event.meta().correlationId(), event.meta().causationId(), event.meta().time(),
                now, at.partition(), at.offset(), text(value), false, null);
    }

    /**
     * The row of a record read from a dead-letter topic. Its id is {@code dlq:<ce_id>} so that it never
     * collides with the original event (another service may dead-letter an event the ledger stored),
     * and copies dead-lettered by several consumer groups collapse into one; without a ce_id header
     * it is {@code dlq:<topic>:<partition>:<offset>}.
     */
    public static StoredEvent deadLetter(KafkaPosition at, byte[] value, Instant now) {
        String ceId = at.header(CloudEventHeaders.ID);
        String id = ceId != null && !ceId.isBlank()
                ? "dlq:" + ceId
                : "dlq:" + at.topic() + ":" + at.partition() + ":" + at.offset();
        String subject = at.header(CloudEventHeaders.SUBJECT);
        return new StoredEvent(id, at.topic(), at.header(CloudEventHeaders.TYPE), subject != null ? subject : at.key(),
                at.header(CloudEventHeaders.CORRELATION_ID), at.header(CloudEventHeaders.CAUSATION_ID),
                timeOf(at), now, at.partition(), at.offset(), text(value), true,
                at.header(CloudEventHeaders.DLQ_REASON));
    }

    private static Instant timeOf(KafkaPosition at) {
        String time = at.header(CloudEventHeaders.TIME);
        if (time != null) {
            try {
                return Instant.parse(time);
            } catch (DateTimeParseException e) {
                // a dead letter may carry anything; fall back to the broker's timestamp
            }
        }
        return at.timestamp();
    }

    private static String text(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        // PostgreSQL text cannot hold NUL; a garbage dead letter must still be storable
        return new String(value, StandardCharsets.UTF_8).replace((char) 0, (char) 0xFFFD);
    }
}
