package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import io.stowage.events.Topics;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ReleaseOutcome;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** Reads single events, the events of an asset, release outcomes and the ledger's counts. */
@ApplicationScoped
public class LedgerQueries {
    private static final String STATUS = """
            select (select count(*) from ledger_event),
                   (select count(*) from ledger_asset),
                   (select count(*) from ledger_object),
                   (select count(*) from ledger_object where head_result = 'OK'),
                   (select count(*) from ledger_object where full_read_result = 'OK'),
                   (select count(*) from ledger_event where topic = $1),
                   (select count(*) from ledger_event where topic = $2),
                   (select count(*) from ledger_event where topic = $3),
                   (select count(*) from ledger_event where dead_letter)""";

    private final Pool pool;

    @Inject
    public LedgerQueries(Pool pool) {
        this.pool = pool;
    }

    /** @return the stored event (main topic or dead letter), or null */
    public Uni<LedgerEvent> event(String eventId) {
        return Panache.withSession(() -> LedgerEvent.findById(eventId));
    }

    /** @return every stored event of the asset, oldest event time first */
    public Uni<List<LedgerEvent>> eventsOf(String assetId) {
        return Panache.withSession(() -> LedgerEvent.list("assetId", Sort.by("eventTime").and("recordedAt"), assetId));
    }

    /** @return what became of the release request, or null when the ledger never saw it */
    public Uni<ReleaseOutcome> release(String requestId) {
        return Panache.withSession(() -> LedgerRelease.<LedgerRelease>findById(requestId))
                .map(row -> row == null ? null : row.toRecord().toOutcome());
    }

    /** @return counts over the ledger's tables, read in one statement */
    public Uni<LedgerStatus> status() {
        return pool.preparedQuery(STATUS)
                .execute(Tuple.of(Topics.GATE_PASSED, Topics.GATE_DENIED, Topics.VOLUME_RELEASED))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new LedgerStatus(r.getLong(0), r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4),
                            r.getLong(5), r.getLong(6), r.getLong(7), r.getLong(8));
                });
    }
}
