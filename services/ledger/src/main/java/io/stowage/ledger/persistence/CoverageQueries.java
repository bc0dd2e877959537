package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.events.ObjectKind;
import io.stowage.events.Topics;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ScrubCandidate;
import io.stowage.events.ledger.ScrubCoverage;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the rolling scrub's view of the ledger: the objects re-read least recently ({@code ledger_object},
 * newest FULL_READ time, never-re-read first) and the coverage of a period (those rows plus the stored
 * {@code object.verified} FULL_READ events of the period). Only objects uploaded at or before the given instant
 * count, so the figures "as of" an instant do not include objects that did not exist yet.
 */
@ApplicationScoped
public class CoverageQueries {
    private static final String DUE = """
            select store, bucket, object_key, asset_id, kind, bytes, sha256, local_path, uploaded_at,
                   full_read_verified_at, full_read_result
            from ledger_object
            where ($1::text is null or store = $1) and (uploaded_at is null or uploaded_at <= $2) and sha256 is not null
            order by full_read_verified_at nulls first, uploaded_at nulls last, object_key, store
            limit $3""";
    // one asset's objects: a statement of its own, so that even a generic plan of the prepared statement finds them
    // through ledger_object_asset, never by walking the whole ledger in scrub order (ledger_object_last_full_read)
    static final String DUE_OF_ASSET = """
            select store, bucket, object_key, asset_id, kind, bytes, sha256, local_path, uploaded_at,
                   full_read_verified_at, full_read_result
            from ledger_object
            where asset_id = $4 and ($1::text is null or store = $1) and (uploaded_at is null or uploaded_at <= $2)
              and sha256 is not null
            order by full_read_verified_at nulls first, uploaded_at nulls last, object_key, store
            limit $3""";
    /** One statement, so the three parts see one snapshot (the ledger writes an event and its projection together). */
    private static final String COVERAGE = """
            with o as (
                select count(*) as objects, coalesce(sum(bytes), 0) as bytes,
                       count(*) filter (where full_read_verified_at is null) as never,
                       count(*) filter (where full_read_verified_at > $3 and full_read_verified_at <= $2) as recent,
                       count(*) filter (where coalesce(full_read_verified_at, uploaded_at) <= $3) as overdue
                from ledger_object where store = $1 and (uploaded_at is null or uploaded_at <= $2)),
            f as (
                select object_key, coalesce(full_read_verified_at, uploaded_at) as since,
                       full_read_verified_at is null as never_read
                from ledger_object where store = $1 and (uploaded_at is null or uploaded_at <= $2)
                order by full_read_verified_at nulls first, uploaded_at nulls last, object_key limit 1),
            r as (
                select count(*) as reads,
                       count(*) filter (where payload::jsonb -> 'meta' ->> 'correlationId' like 'scrub-%') as scrubs,
                       coalesce(sum(greatest((payload::jsonb ->> 'actualBytes')::bigint, 0)), 0) as read_bytes
                from ledger_event
                where topic = $4 and not dead_letter and event_time > $3 and event_time <= $2
                  and payload::jsonb ->> 'method' = 'FULL_READ' and payload::jsonb ->> 'store' = $1)
            select o.*, r.*, f.object_key, f.since, f.never_read from o cross join r left join f on true""";

    private final Pool pool;

    @Inject
    public CoverageQueries(Pool pool) {
        this.pool = pool;
    }

    /**
     * @param store logical store name, or null for every store
     * @param at    objects uploaded after this instant are left out
     * @param limit how many rows at most
     * @return objects with a recorded SHA-256, never-re-read first (oldest upload first, unknown upload last), then by newest FULL_READ
     *         time ascending, ties by key; fails when the database cannot be read
     */
    public Uni<List<ScrubCandidate>> due(String store, Instant at, int limit) {
        return due(store, null, at, limit);
    }

    /**
     * As {@link #due(String, Instant, int)}, only the objects of one asset when {@code assetId} is not null (an
     * operator's re-read of that asset now, in the same order).
     */
    public Uni<List<ScrubCandidate>> due(String store, String assetId, Instant at, int limit) {
        Tuple arguments = assetId == null ? Tuple.of(store, utc(at), limit) : Tuple.of(store, utc(at), limit, assetId);
        return pool.preparedQuery(assetId == null ? DUE : DUE_OF_ASSET).execute(arguments).map(rows -> {
            List<ScrubCandidate> due = new ArrayList<>();
            for (Row r : rows) {
                due.add(new ScrubCandidate(r.getString("store"), r.getString("bucket"), r.getString("object_key"),
                        r.getString("asset_id"), enumOf(ObjectKind.class, r.getString("kind")), r.getLong("bytes"),
                        r.getString("sha256"), r.getString("local_path"), instant(r, "uploaded_at"),
                        instant(r, "full_read_verified_at"), enumOf(VerifyResult.class, r.getString("full_read_result"))));
            }
            return due;
        });
    }

    /**
     * @param store  logical store name
     * @param at     the instant the coverage is for
     * @param period the scrub period, positive
     * @return the coverage of {@code store} at {@code at}; fails when the database cannot be read
     */
    public Uni<ScrubCoverage> coverage(String store, Instant at, Duration period) {
        OffsetDateTime end = utc(at);
        OffsetDateTime start = utc(at.minus(period));
        return pool.preparedQuery(COVERAGE).execute(Tuple.of(store, end, start, Topics.OBJECT_VERIFIED)).map(rows -> {
            Row r = rows.iterator().next();
            String oldest = r.getString("object_key");
            Instant since = instant(r, "since");
            return new ScrubCoverage(store, at, period.toSeconds(), r.getLong("objects"), r.getLong("bytes"),
                    r.getLong("never"), r.getLong("recent"), r.getLong("reads"), r.getLong("scrubs"),
                    r.getLong("read_bytes"), r.getLong("overdue"), oldest, since,
                    oldest != null && Boolean.TRUE.equals(r.getBoolean("never_read")),
                    since == null ? null : Duration.between(since, at).toSeconds());
        });
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, String name) {
        return name == null ? null : Enum.valueOf(type, name);
    }
}
