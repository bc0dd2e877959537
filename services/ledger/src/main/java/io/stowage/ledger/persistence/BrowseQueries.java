package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.ledger.domain.AssetSummary;
import io.stowage.ledger.domain.HistoryEntry;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Paged reads for browsing the ledger: assets in id order, the copies of one object key across stores and
 * buckets, and the history of a correlation id in chain order (index {@code ledger_event_correlation}, V3).
 */
@ApplicationScoped
public class BrowseQueries {
    private static final String ASSETS = """
            select asset_id, kind, local_root, sealed, key_checkpoint, revision from ledger_asset
            where asset_id collate "C" > $1 order by asset_id collate "C" limit $2""";
    private static final String COPIES = """
            select store, bucket, object_key, kind, bytes, sha256, local_path, head_result, full_read_result
            from ledger_object where object_key = $1 order by store, bucket""";
    private static final String HISTORY = """
            select seq, event_id, topic, type, asset_id, causation_id, event_time, dead_letter, reason from ledger_event
            where correlation_id = $1 and seq > $2 order by seq limit $3""";

    private final Pool pool;

    @Inject
    public BrowseQueries(Pool pool) {
        this.pool = pool;
    }

    /** @return up to {@code count} assets with ids after {@code after} ("" for the first), ids ascending in byte order */
    public Uni<List<AssetSummary>> assets(String after, int count) {
        return pool.preparedQuery(ASSETS).execute(Tuple.of(after, count)).map(rows -> map(rows, r -> new AssetSummary(
                r.getString("asset_id"), r.getString("kind"), r.getString("local_root"), r.getBoolean("sealed"),
                r.getBoolean("key_checkpoint"), r.getString("revision"))));
    }

    /** @return every row of {@code key} in any store and bucket (its copies), by store then bucket */
    public Uni<List<ObjectEvidence>> copies(String key) {
        return pool.preparedQuery(COPIES).execute(Tuple.of(key)).map(rows -> map(rows, r -> new ObjectEvidence(
                r.getString("store"), r.getString("bucket"), r.getString("object_key"),
                enumOf(ObjectKind.class, r.getString("kind")), r.getLong("bytes"), r.getString("sha256"),
                r.getString("local_path"), enumOf(VerifyResult.class, r.getString("head_result")),
                enumOf(VerifyResult.class, r.getString("full_read_result")))));
    }

    /** @return up to {@code count} events of {@code correlationId} with seq above {@code afterSeq}, seq ascending */
    public Uni<List<HistoryEntry>> history(String correlationId, long afterSeq, int count) {
        return pool.preparedQuery(HISTORY).execute(Tuple.of(correlationId, afterSeq, count)).map(rows -> map(rows, r -> {
            OffsetDateTime time = r.getOffsetDateTime("event_time");
            return new HistoryEntry(r.getLong("seq"), r.getString("event_id"), r.getString("topic"), r.getString("type"),
                    r.getString("asset_id"), r.getString("causation_id"), time == null ? null : time.toInstant(),
                    r.getBoolean("dead_letter"), r.getString("reason"));
        }));
    }

    private static <T> List<T> map(RowSet<Row> rows, Function<Row, T> f) {
        List<T> out = new ArrayList<>();
        for (Row row : rows) {
            out.add(f.apply(row));
        }
        return out;
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, String name) {
        return name == null ? null : Enum.valueOf(type, name);
    }
}
