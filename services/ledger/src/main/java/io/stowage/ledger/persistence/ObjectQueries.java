package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Pages through the {@code ledger_object} rows of one store in key order. Keys compare with the {@code "C"}
 * collation (byte order of UTF-8, which is S3's listing order and Java's {@code String} order for ASCII keys),
 * whatever the database's default collation, so a caller can merge a page with a bucket listing.
 */
@ApplicationScoped
public class ObjectQueries {
    private static final String PAGE = """
            select store, bucket, object_key, kind, bytes, sha256, local_path, head_result, full_read_result
            from ledger_object where store = $1 and object_key collate "C" > $2
            order by object_key collate "C", bucket limit $3""";

    private final Pool pool;

    @Inject
    public ObjectQueries(Pool pool) {
        this.pool = pool;
    }

    /**
     * @param store logical store name ("primary", "replica")
     * @param after exclusive lower bound on the key; "" for the first rows
     * @param count how many rows at most
     * @return up to {@code count} objects of {@code store} with keys after {@code after}, keys ascending (then
     *         bucket); fails when the database cannot be read
     */
    public Uni<List<ObjectEvidence>> after(String store, String after, int count) {
        return pool.preparedQuery(PAGE).execute(Tuple.of(store, after, count)).map(rows -> {
            List<ObjectEvidence> objects = new ArrayList<>();
            for (Row row : rows) {
                objects.add(evidence(row));
            }
            return objects;
        });
    }

    private static ObjectEvidence evidence(Row r) {
        return new ObjectEvidence(r.getString("store"), r.getString("bucket"), r.getString("object_key"),
                enumOf(ObjectKind.class, r.getString("kind")), r.getLong("bytes"), r.getString("sha256"),
                r.getString("local_path"), enumOf(VerifyResult.class, r.getString("head_result")),
                enumOf(VerifyResult.class, r.getString("full_read_result")));
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, String name) {
        return name == null ? null : Enum.valueOf(type, name);
    }
}
