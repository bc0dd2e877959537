package io.stowage.ledger.messaging;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.stowage.ledger.domain.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The ledger's counters and timer on {@code /q/metrics}: {@code stowage_ledger_events_ingested_total{topic,type}}
 * (main-topic events stored now; a redelivered event adds nothing), {@code stowage_ledger_dead_letters_stored_total{topic}}
 * (dead-letter rows stored, topic = the {@code <topic>.dlq} read), {@code stowage_ledger_dead_letters_sent_total{topic}}
 * (records this ledger refused and sent to {@code <topic>.dlq}, topic = the topic they came from),
 * {@code stowage_ledger_append_seconds{mode}} (one append transaction to the hash chain, mode {@code batch} or
 * {@code single}, failed attempts included) and {@code stowage_ledger_append_failures_total{mode}} (append transactions
 * that failed, each attempt counted; nothing of a failed one is stored). Tags carry topic names and CloudEvents types
 * of the contract only, never an asset id, key, path or a header value of a dead letter.
 */
@ApplicationScoped
public class LedgerMetrics {
    /** Append mode of one poll's events in one transaction. */
    public static final String BATCH = "batch";
    /** Append mode of one event in its own transaction (fallback of a failed batch, dead letters). */
    public static final String SINGLE = "single";

    private final MeterRegistry registry;

    LedgerMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts main-topic rows stored now (dead-letter rows are counted by {@link #deadLetterStored}). */
    public void ingested(List<StoredEvent> rows) {
        for (StoredEvent row : rows) {
            if (row.deadLetter()) {
                deadLetterStored(row.topic());
            } else {
                Counter.builder("stowage.ledger.events.ingested").description("events stored in the ledger, by topic and type")
                        .tag("topic", row.topic()).tag("type", String.valueOf(row.type())).register(registry).increment();
            }
        }
    }

    /** Counts one dead-letter row stored now, read from {@code dlqTopic}. */
    public void deadLetterStored(String dlqTopic) {
        Counter.builder("stowage.ledger.dead.letters.stored").description("dead-letter records stored in the ledger")
                .tag("topic", dlqTopic).register(registry).increment();
    }

    /** Counts one record of {@code topic} the ledger refused and sent to its dead-letter topic. */
    public void deadLetterSent(String topic) {
        Counter.builder("stowage.ledger.dead.letters.sent").description("records the ledger sent to <topic>.dlq")
                .tag("topic", topic).register(registry).increment();
    }

    /**
     * @param mode    {@link #BATCH} or {@link #SINGLE}
     * @param attempt one append transaction
     * @return the same attempt, timed from subscription to its item or failure; a failure is also counted
     */
    public <T> Supplier<Uni<T>> timed(String mode, Supplier<Uni<T>> attempt) {
        return () -> {
            long start = System.nanoTime();
            return attempt.get().onItemOrFailure().invoke((item, failure) -> {
                appendTimer(mode).record(Duration.ofNanos(System.nanoTime() - start));
                if (failure != null) {
                    Counter.builder("stowage.ledger.append.failures").description("failed append transactions")
                            .tag("mode", mode).register(registry).increment();
                }
            });
        };
    }

    private Timer appendTimer(String mode) {
        return Timer.builder("stowage.ledger.append").description("duration of one append transaction to the hash chain")
                .tag("mode", mode).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
    }
}
