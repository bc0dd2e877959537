package io.stowage.events;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * The envelope fields every event carries: its id (the idempotency key), schema version, time,
 * and the flow it belongs to. Serialised as the {@code meta} object of every event.
 *
 * @param eventId       unique id (UUID string); consumers are idempotent on it
 * @param schemaVersion version of the event's schema; readers refuse a version above the one they know
 * @param time          when the event was produced (from the producer's clock)
 * @param correlationId the flow (dataset revision, checkpoint step, release request); never null
 * @param causationId   id of the event that caused this one, or null for the first event of a flow
 */
public record EventMeta(String eventId, int schemaVersion, Instant time, String correlationId, String causationId) {

    /** The schema version this code writes and the highest it reads. */
    public static final int CURRENT_VERSION = 1;

    /** Meta of the first event of a new flow. */
    public static EventMeta first(String correlationId, Clock clock) {
        return new EventMeta(UUID.randomUUID().toString(), CURRENT_VERSION, clock.instant(), correlationId, null);
    }

    /** Meta of an event caused by {@code cause}: same correlation id, causation id = the cause's event id. */
    public static EventMeta causedBy(StowageEvent cause, Clock clock) {
        return new EventMeta(UUID.randomUUID().toString(), CURRENT_VERSION, clock.instant(),
                cause.meta().correlationId(), cause.meta().eventId());
    }

    /**
     * Meta of an event caused by {@code cause} whose id the caller derived (e.g. a name-based UUID of the cause's id),
     * so that handling a redelivered cause again yields the same event id, which consumers then count once.
     */
    public static EventMeta causedBy(StowageEvent cause, String eventId, Clock clock) {
        return new EventMeta(eventId, CURRENT_VERSION, clock.instant(), cause.meta().correlationId(),
                cause.meta().eventId());
    }

    void validate() {
        Validation.require(eventId != null && !eventId.isBlank(), "meta.eventId is missing");
        Validation.require(schemaVersion >= 1, "meta.schemaVersion is missing");
        Validation.require(schemaVersion <= CURRENT_VERSION,
                "meta.schemaVersion " + schemaVersion + " is newer than " + CURRENT_VERSION + ", which this reader knows");
        Validation.require(time != null, "meta.time is missing");
        Validation.require(correlationId != null && !correlationId.isBlank(), "meta.correlationId is missing");
    }
}
