package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.ledger.domain.ChainEntry;
import io.stowage.ledger.domain.EventChain;
import io.stowage.ledger.domain.MilestoneArchive;
import io.stowage.ledger.domain.StoredEvent;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the chain rows of one closed asset ({@link MilestoneArchive.Scope}: asset id or correlation id equal to the
 * asset or under its prefix), in seq order, each with the link of the row before it, and produces the archive text
 * ({@link MilestoneArchive#jsonl}). One query, a sequential scan of {@code ledger_event}: meant for an operator
 * closing a milestone, not for every request.
 */
@ApplicationScoped
public class ArchiveQueries {
    private static final String ROWS = """
            select e.seq, e.event_id, e.topic, e.type, e.asset_id, e.correlation_id, e.causation_id, e.kafka_partition,
                   e.kafka_offset, e.payload, e.dead_letter, e.reason, e.chain_hash, p.chain_hash as previous_hash
            from ledger_event e left join ledger_event p on p.seq = e.seq - 1
            where e.asset_id = $1 or starts_with(e.asset_id, $2) or e.correlation_id = $1 or starts_with(e.correlation_id, $2)
            order by e.seq""";

    private final Pool pool;

    @Inject
    public ArchiveQueries(Pool pool) {
        this.pool = pool;
    }

    /**
     * @return the archive text of {@code scope} (a header line only when the ledger holds none of its events)
     * @throws IllegalStateException (as the Uni's failure) when a row does not match its chain link
     */
    public Uni<String> export(MilestoneArchive.Scope scope) {
        return pool.preparedQuery(ROWS).execute(Tuple.of(scope.exact(), scope.prefix())).map(rows -> {
            List<MilestoneArchive.Row> out = new ArrayList<>();
            for (Row r : rows) {
                StoredEvent event = new StoredEvent(r.getString("event_id"), r.getString("topic"), r.getString("type"),
                        r.getString("asset_id"), r.getString("correlation_id"), r.getString("causation_id"), null, null,
                        r.getInteger("kafka_partition"), r.getLong("kafka_offset"), r.getString("payload"),
                        r.getBoolean("dead_letter"), r.getString("reason"));
                long seq = r.getLong("seq");
                String previous = seq == 1 ? EventChain.GENESIS : r.getString("previous_hash");
                out.add(new MilestoneArchive.Row(new ChainEntry(seq, event, r.getString("chain_hash")), previous));
            }
            return MilestoneArchive.jsonl(scope, out);
        });
    }
}
