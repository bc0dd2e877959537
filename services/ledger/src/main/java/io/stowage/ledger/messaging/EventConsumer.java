package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.KafkaPosition;
import io.stowage.ledger.domain.StoredEvent;
import io.stowage.ledger.persistence.EventAppend;
import io.stowage.ledger.persistence.EventRecorder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Consumes every topic of {@link Topics#ALL} (channel {@code ledger-events}) in batches (one Kafka poll,
 * up to {@code max.poll.records}) and appends each batch in one transaction, chained in poll order; the batch
 * is acked, and its offsets become committable, only after that transaction committed. A record that does
 * not decode goes to {@code <topic>.dlq} first. When the batch transaction fails three times, the events are
 * stored one by one ({@link StoreRetry#runThroughOutages}). An event that still cannot be stored is dead-lettered
 * only when the database answers and one more attempt fails: the failure is the event's own. When the database
 * does not answer, the event waits and is tried again without bound, and the batch stays unacked: a valid event
 * is never dead-lettered, nor its offset committed, because PostgreSQL was unreachable or slow; consuming resumes
 * where it stopped once the database answers.
 */
@ApplicationScoped
public class EventConsumer {
    private static final Logger LOG = Logger.getLogger(EventConsumer.class);
    private static final int BATCH_RETRIES = 2;

    private final EventRecorder recorder;
    private final StoreRetry retry;
    private final DeadLetterPublisher deadLetters;
    private final LedgerMetrics metrics;

    @Inject
    public EventConsumer(EventRecorder recorder, StoreRetry retry, DeadLetterPublisher deadLetters,
                         LedgerMetrics metrics) {
        this.recorder = recorder;
        this.retry = retry;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
    }

    /** @return completes once every record of the batch is stored (or was already) or dead-lettered, and the batch acked */
    @Incoming("ledger-events")
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<EventAppend> appends = new ArrayList<>();
        List<Uni<Void>> refused = new ArrayList<>();
        List<KafkaRecord<String, byte[]>> stored = new ArrayList<>();
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            KafkaPosition at = KafkaRecords.positionOf(record);
            try {
                StowageEvent event = EventCodec.decode(at.topic(), record.getPayload());
                appends.add(new EventAppend(StoredEvent.of(event, at, record.getPayload(), Instant.now()), event));
                stored.add(record);
            } catch (InvalidEventException e) {
                LOG.warnf("dead-lettering %s partition %d offset %d (ce_id %s, asset %s): %s", at.topic(), at.partition(),
                        at.offset(), at.header(CloudEventHeaders.ID), at.key(), e.getMessage());
                refused.add(deadLetters.send(at, record.getPayload(), e).invoke(() -> metrics.deadLetterSent(at.topic())));
            }
        }
        Uni<Void> dlq = refused.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(refused).andFailFast().replaceWithVoid();
        // a batch is retried only twice: if it still fails, storing one by one (each with the full retry policy)
        // tells a database outage (the first event waits) from one event that cannot be stored (it is dead-lettered)
        return dlq.chain(() -> retry.run(metrics.timed(LedgerMetrics.BATCH, () -> recorder.recordAll(appends)), BATCH_RETRIES))
                .invoke(rows -> LOG.debugf("batch of %d events: %d stored, %d duplicates", appends.size(), rows.size(),
                        appends.size() - rows.size()))
                .invoke(metrics::ingested)
                .replaceWithVoid()
                .onFailure().recoverWithUni(failure -> {
                    LOG.errorf(failure, "cannot store a batch of %d events (%s); storing them one by one", appends.size(),
                            positions(stored));
                    OneByOne counts = new OneByOne();
                    return oneByOne(appends, stored, counts).invoke(() -> LOG.infof(
                            "batch %s handled one by one (%d stored, %d stored already, %d dead-lettered); acking it",
                            positions(stored), counts.stored.get(), counts.already.get(), counts.deadLettered.get()));
                })
                .chain(() -> Uni.createFrom().completionStage(batch.ack()));
    }

    private static String positions(List<KafkaRecord<String, byte[]>> records) {
        StringBuilder text = new StringBuilder();
        for (KafkaRecord<String, byte[]> r : records) {
            KafkaPosition at = KafkaRecords.positionOf(r);
            text.append(text.isEmpty() ? "" : ", ").append(at.topic()).append('-').append(at.partition()).append('@')
                    .append(at.offset());
        }
        return text.toString();
    }

    /** What storing a batch one by one did with its events. */
    private static final class OneByOne {
        final java.util.concurrent.atomic.AtomicInteger stored = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger already = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger deadLettered = new java.util.concurrent.atomic.AtomicInteger();
    }

    private Uni<Void> oneByOne(List<EventAppend> appends, List<KafkaRecord<String, byte[]>> records, OneByOne counts) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < appends.size(); i++) {
            indexes.add(i);
        }
        return Multi.createFrom().iterable(indexes).onItem().transformToUniAndConcatenate(i -> {
            EventAppend a = appends.get(i);
            StoredEvent row = a.row();
            return retry.runThroughOutages("event " + row.eventId() + " type " + row.type() + " asset " + row.assetId(),
                            metrics.timed(LedgerMetrics.SINGLE, () -> recorder.record(row, a.event())))
                    .invoke(stored -> {
                        LOG.infof("event %s (%s) %s", row.eventId(), positions(List.of(records.get(i))),
                                stored ? "stored" : "was stored already");
                        (stored ? counts.stored : counts.already).incrementAndGet();
                        metrics.ingested(stored ? List.of(row) : List.of());
                    }).replaceWithVoid()
                    .onFailure().recoverWithUni(failure -> {
                        LOG.errorf(failure, "cannot store event %s type %s asset %s while the database answers: "
                                + "dead-lettering it", row.eventId(), row.type(), row.assetId());
                        KafkaRecord<String, byte[]> record = records.get(i);
                        counts.deadLettered.incrementAndGet();
                        return deadLetters.send(KafkaRecords.positionOf(record), record.getPayload(), failure)
                                .invoke(() -> metrics.deadLetterSent(row.topic()));
                    });
        }).collect().last().replaceWithVoid();
    }
}
