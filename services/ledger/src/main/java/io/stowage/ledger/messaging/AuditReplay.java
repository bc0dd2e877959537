package io.stowage.ledger.messaging;

import io.stowage.ledger.domain.ProjectionDifference;
import io.stowage.ledger.domain.ProjectionFold;
import io.stowage.ledger.domain.ReplayReport;
import io.stowage.ledger.persistence.ReplayStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code audit replay}: reads every audit topic from the beginning (up to the end offsets at the start) with
 * {@link TopicSnapshot}, folds the events with {@link ProjectionFold}, writes the result into a fresh schema
 * ({@code replay_<utc time>_<random>}, same Flyway DDL as the live tables), waits up to 30 s for the live
 * consumer group to have committed the same snapshot, and compares the two schemas row by row. Blocking:
 * seconds to minutes; one replay at a time.
 */
@ApplicationScoped
public class AuditReplay {
    private static final Logger LOG = Logger.getLogger(AuditReplay.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss").withZone(ZoneOffset.UTC);
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private final KafkaClientSettings settings;
    private final ConsumerLag lag;
    private final ReplayStore store;

    @Inject
    public AuditReplay(KafkaClientSettings settings, ConsumerLag lag, ReplayStore store) {
        this.settings = settings;
        this.lag = lag;
        this.store = store;
    }

    /**
     * @param prefix compare only rows whose asset id (request id for releases) contains it; "" for all
     * @param keep   keep the replay schema for inspection instead of dropping it
     * @return the report; throws {@link SQLException} when PostgreSQL fails, a Kafka exception when the topics
     *         cannot be read
     */
    public synchronized ReplayReport run(String prefix, boolean keep) throws SQLException {
        long started = System.nanoTime();
        ProjectionFold fold = new ProjectionFold();
        TopicSnapshot.Read read = new TopicSnapshot(settings).read(fold::apply);
        boolean caughtUp = awaitLive(read);
        String schema = "replay_" + STAMP.format(Instant.now()) + "_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        store.create(schema);
        try {
            Map<String, Long> rows = store.write(schema, fold);
            List<ProjectionDifference> differences = store.compare(store.liveSchema(), schema, prefix);
            double seconds = (System.nanoTime() - started) / 1e9;
            LOG.infof("replay of %d records into %s: %d differences (scope '%s') in %.1f s", read.records(), schema,
                    differences.size(), prefix, seconds);
            return new ReplayReport(schema, keep, prefix, read.records(), fold.applied(), fold.duplicates(),
                    read.undecodable(), fold.unprojected(), caughtUp, rows, seconds, differences.isEmpty(), differences);
        } finally {
            if (!keep) {
                store.drop(schema);
            }
        }
    }

    private boolean awaitLive(TopicSnapshot.Read read) {
        Instant deadline = Instant.now().plus(CATCH_UP);
        while (true) {
            if (lag.reached(read.ends())) {
                return true;
            }
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
