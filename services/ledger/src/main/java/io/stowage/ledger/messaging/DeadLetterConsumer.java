package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Uni;
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
 * Consumes the dead-letter topic of every topic of {@link Topics#ALL} (channel {@code ledger-dead-letters})
 * and stores each record once as a dead-letter event with its reason. While the database does not answer, a dead
 * letter waits and is tried again without bound ({@link StoreRetry#runThroughOutages}). A dead letter is never
 * dead-lettered again: when it cannot be stored while the database answers, the channel fails (readiness goes down).
 */
@ApplicationScoped
public class DeadLetterConsumer {
    private static final Logger LOG = Logger.getLogger(DeadLetterConsumer.class);

    private final EventRecorder recorder;
    private final StoreRetry retry;
    private final LedgerMetrics metrics;

    @Inject
    public DeadLetterConsumer(EventRecorder recorder, StoreRetry retry, LedgerMetrics metrics) {
        this.recorder = recorder;
        this.retry = retry;
        this.metrics = metrics;
    }

    /** @return completes once the dead letter is stored (or was already) and acked */
    @Incoming("ledger-dead-letters")
    public Uni<Void> consume(Message<byte[]> message) {
        KafkaPosition at = KafkaRecords.positionOf(message);
        StoredEvent row = StoredEvent.deadLetter(at, message.getPayload(), Instant.now());
        return retry.runThroughOutages("dead letter " + row.eventId() + " from " + row.topic(),
                        metrics.timed(LedgerMetrics.SINGLE, () -> recorder.record(row, null)))
                .invoke(stored -> metrics.ingested(stored ? java.util.List.of(row) : java.util.List.of()))
                .invoke(stored -> LOG.infof("%s dead letter %s from %s asset %s: %s", stored ? "stored" : "duplicate",
                        row.eventId(), row.topic(), row.assetId(), row.reason()))
                .chain(stored -> Uni.createFrom().completionStage(message.ack()))
                .onFailure().recoverWithUni(failure -> Uni.createFrom().completionStage(message.nack(failure)));
    }
}
