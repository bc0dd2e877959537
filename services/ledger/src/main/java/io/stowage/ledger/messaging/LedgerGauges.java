package io.stowage.ledger.messaging;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.LedgerLag;
import io.stowage.ledger.domain.PartitionLag;
import io.stowage.ledger.persistence.DeadLetterRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ledger's gauges on {@code /q/metrics}, read when scraped (on the scrape's worker thread) and kept for
 * {@link #FRESH_NANOS} so one scrape asks Kafka and PostgreSQL once: {@code stowage_ledger_consumer_lag_records{topic}}
 * (the sum over the topic's partitions of what {@code GET /api/lag} reports, for every audit topic and its
 * dead-letter topic; NaN when Kafka does not answer or lacks the topic) and {@code stowage_ledger_dead_letter_rows}
 * (dead-letter rows in {@code ledger_event}; NaN when PostgreSQL does not answer).
 */
@ApplicationScoped
public class LedgerGauges {
    /** How long one reading of the lag or the row count is reused: 5 seconds. */
    static final long FRESH_NANOS = 5_000_000_000L;
    private static final Logger LOG = Logger.getLogger(LedgerGauges.class);

    private final ConsumerLag lag;
    private final DeadLetterRows deadLetters;
    private Map<String, Long> lagByTopic = Map.of();
    private long lagReadAt;
    private double deadLetterRows = Double.NaN;
    private long rowsReadAt;

    LedgerGauges(ConsumerLag lag, DeadLetterRows deadLetters) {
        this.lag = lag;
        this.deadLetters = deadLetters;
    }

    void register(@Observes StartupEvent start, MeterRegistry registry) {
        // a registry that outlives one start of the application (tests restart Quarkus in one JVM) may still hold the
        // gauges of an earlier instance, which a new registration would be given back and which read NaN once that
        // instance is gone: remove them first, so the gauges read this instance
        for (String name : List.of("stowage.ledger.consumer.lag", "stowage.ledger.dead.letter.rows")) {
            registry.find(name).meters().forEach(registry::remove);
        }
        List<String> topics = new ArrayList<>(Topics.ALL);
        Topics.ALL.forEach(t -> topics.add(Topics.dlq(t)));
        for (String topic : topics) {
            Gauge.builder("stowage.ledger.consumer.lag", this, g -> g.lagOf(topic)).baseUnit("records")
                    .description("records of the topic not yet stored and committed by the ledger's consumer group")
                    .tag("topic", topic).register(registry);
        }
        Gauge.builder("stowage.ledger.dead.letter.rows", this, LedgerGauges::deadLetterRows)
                .description("dead-letter rows in the ledger").register(registry);
    }

    synchronized double lagOf(String topic) {
        long now = System.nanoTime();
        if (lagReadAt == 0 || now - lagReadAt > FRESH_NANOS) {
            lagByTopic = readLag();
            lagReadAt = now;
        }
        Long records = lagByTopic.get(topic);
        return records == null ? Double.NaN : records;
    }

    synchronized double deadLetterRows() {
        long now = System.nanoTime();
        if (rowsReadAt == 0 || now - rowsReadAt > FRESH_NANOS) {
            try {
                deadLetterRows = deadLetters.count();
            } catch (SQLException e) {
                LOG.warnf("cannot count dead-letter rows for /q/metrics: %s", e.getMessage());
                deadLetterRows = Double.NaN;
            }
            rowsReadAt = now;
        }
        return deadLetterRows;
    }

    private Map<String, Long> readLag() {
        try {
            LedgerLag read = lag.read();
            Map<String, Long> sums = new HashMap<>();
            for (PartitionLag p : read.partitions()) {
                sums.merge(p.topic(), p.lag(), Long::sum);
            }
            return sums;
        } catch (IllegalStateException e) {
            LOG.warnf("cannot read the consumer lag for /q/metrics: %s", e.getMessage());
            return Map.of();
        }
    }
}
