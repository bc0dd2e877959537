package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.ledger.domain.ChainEntry;
import io.stowage.ledger.domain.ChainReport;
import io.stowage.ledger.domain.ChainVerifier;
import io.stowage.ledger.domain.StoredEvent;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Verifies the whole event chain: reads the chain head, then every {@code ledger_event} row up to it in seq
 * order, {@value #PAGE_SIZE} rows per query, through a {@link ChainVerifier}. Rows appended while it runs are
 * beyond the head it read and are left for the next check.
 */
@ApplicationScoped
public class ChainQueries {
    static final int PAGE_SIZE = 1000;
    private static final String HEAD = "select seq, chain_hash from ledger_chain_head where id = 1";
    private static final String PAGE = """
            select seq, event_id, topic, type, asset_id, correlation_id, causation_id, kafka_partition, kafka_offset,
                   payload, dead_letter, reason, chain_hash
            from ledger_event where seq > $1 and seq <= $2 order by seq limit $3""";

    private final Pool pool;

    @Inject
    public ChainQueries(Pool pool) {
        this.pool = pool;
    }

    /** @return the verdict over every row up to the head; fails when the database cannot be read */
    public Uni<ChainReport> verify() {
        return pool.query(HEAD).execute().chain(heads -> {
            Row head = heads.iterator().next();
            long headSeq = head.getLong("seq");
            ChainVerifier verifier = new ChainVerifier();
            return pages(verifier, 0, headSeq).map(done -> verifier.finish(headSeq, head.getString("chain_hash")));
        });
    }

    private Uni<Boolean> pages(ChainVerifier verifier, long after, long upTo) {
        return pool.preparedQuery(PAGE).execute(Tuple.of(after, upTo, PAGE_SIZE)).chain(rows -> {
            long last = after;
            for (Row row : rows) {
                verifier.accept(entry(row));
                last = row.getLong("seq");
            }
            return rows.size() < PAGE_SIZE ? Uni.createFrom().item(true) : pages(verifier, last, upTo);
        });
    }

    private static ChainEntry entry(Row r) {
        StoredEvent event = new StoredEvent(r.getString("event_id"), r.getString("topic"), r.getString("type"),
                r.getString("asset_id"), r.getString("correlation_id"), r.getString("causation_id"), null, null,
                r.getInteger("kafka_partition"), r.getLong("kafka_offset"), r.getString("payload"),
                r.getBoolean("dead_letter"), r.getString("reason"));
        return new ChainEntry(r.getLong("seq"), event, r.getString("chain_hash"));
    }
}
