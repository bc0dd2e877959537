package io.stowage.events;

/**
 * One immutable event of the Stowage contract. Implementations are records serialised with
 * {@link EventCodec} as JSON; the CloudEvents attributes travel in Kafka headers.
 */
public interface StowageEvent {
    /** @return the envelope: id, schema version, time, correlation and causation ids */
    EventMeta meta();

    /** @return the asset identity: the Kafka record key and the CloudEvents {@code subject} */
    String assetId();

    /** @return the topic this event is published on, one of {@link Topics#ALL} */
    String topic();

    /**
     * Checks required fields and formats.
     *
     * @throws InvalidEventException naming the first field that is missing or malformed
     */
    void validate();
}
