package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Uni;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.KafkaPosition;
import io.stowage.ledger.domain.StoredEvent;
import io.stowage.ledger.persistence.EventRecorder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.time.Instant;

/**
 * Consumes every topic of {@link Topics#ALL} (channel {@code ledger-events}) and stores each event once
 * with its projection change. A record that does not decode is nacked to {@code <topic>.dlq}; so is an
 * event that could not be stored after the configured retries.
 */
@ApplicationScoped
public class EventConsumer {
    private static final Logger LOG = Logger.getLogger(EventConsumer.class);

    private final EventRecorder recorder;
    private final StoreRetry retry;

    @Inject
    public EventConsumer(EventRecorder recorder, StoreRetry retry) {
        this.recorder = recorder;
        this.retry = retry;
    }

    /** @return completes once the record is acked (stored or duplicate) or nacked to its dead-letter topic */
    @Incoming("ledger-events")
    public Uni<Void> consume(Message<byte[]> message) {
        KafkaPosition at = KafkaRecords.positionOf(message);
        StowageEvent event;
        try {
            event = EventCodec.decode(at.topic(), message.getPayload());
        } catch (InvalidEventException e) {
            LOG.warnf("dead-lettering %s partition %d offset %d (ce_id %s, asset %s): %s", at.topic(), at.partition(),
                    at.offset(), at.header(CloudEventHeaders.ID), at.key(), e.getMessage());
            return deadLetter(message, at, e);
        }
        StoredEvent row = StoredEvent.of(event, at, message.getPayload(), Instant.now());
        return retry.run(() -> recorder.record(row, event))
                .invoke(stored -> LOG.debugf("%s event %s type %s asset %s", stored ? "stored" : "duplicate",
                        row.eventId(), row.type(), row.assetId()))
                .chain(stored -> Uni.createFrom().completionStage(message.ack()))
                .onFailure().recoverWithUni(failure -> {
                    LOG.errorf(failure, "cannot store event %s type %s asset %s", row.eventId(), row.type(), row.assetId());
                    return deadLetter(message, at, failure);
                });
    }

    private static Uni<Void> deadLetter(Message<byte[]> message, KafkaPosition at, Throwable reason) {
        return Uni.createFrom().completionStage(message.nack(reason, KafkaRecords.deadLetterTo(Topics.dlq(at.topic()))));
    }
}
