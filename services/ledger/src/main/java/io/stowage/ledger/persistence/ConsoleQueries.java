package io.stowage.ledger.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.stowage.events.EventCodec;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.Alert;
import io.stowage.ledger.domain.EventPayload;
import io.stowage.ledger.domain.ReleaseListing;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Read-only listings for browsing pages (the operator console): the newest release requests with their outcomes and
 * who asked when, the stored payloads of one asset's events on one topic (shard manifests, verifications), and the
 * newest alerts.
 */
@ApplicationScoped
public class ConsoleQueries {
    private static final String RELEASES = """
            select r.request_id, r.path, r.dry_run, r.gate, r.failed, r.released, r.failure_reason, r.plan,
                   e.event_time, e.payload
            from ledger_release r
            left join lateral (select event_time, payload from ledger_event
                               where correlation_id = r.request_id and topic = $1 and not dead_letter
                               order by seq limit 1) e on true
            order by e.event_time desc nulls last, r.request_id limit $2""";
    private static final String PAYLOADS = """
            select event_id, event_time, payload from ledger_event
            where asset_id = $1 and topic = $2 and not dead_letter order by seq limit $3""";

    // The predicates of the partial indexes of V35, with literals: the planner uses a partial index only when it can
    // prove that the query's WHERE implies the index's predicate, which it cannot with bind parameters.
    // The stored events of the topics whose every event is an alert:
    static final String ALWAYS_ALERT = "not dead_letter and topic in (" + Alert.TOPICS.stream()
            .filter(t -> !Topics.OBJECT_VERIFIED.equals(t)).map(t -> "'" + t.replace("'", "''") + "'")
            .collect(Collectors.joining(", ")) + ")";
    // A verification whose result is not OK (payload is the event's JSON text; the CASE keeps a dead letter's payload,
    // which may not be JSON, from ever being cast):
    static final String VERIFY_NOT_OK = """
            case when not dead_letter and topic = '%s' and payload is not null
                 then payload::jsonb ->> 'result' <> 'OK' else false end""".formatted(Topics.OBJECT_VERIFIED);

    // Newest first, at most $1: one "newest first, limit $1" branch per kind of alert, each read backwards along its
    // own partial index, so the cost follows the limit, not the size of the ledger. The branches are disjoint (a dead
    // letter of an always-alert topic is in the first only), so no row comes twice.
    static final String ALERTS = """
            select event_id, event_time, topic, dead_letter, reason, payload from (
                (select seq, event_id, event_time, topic, dead_letter, reason, payload from ledger_event
                 where dead_letter order by seq desc limit $1)
                union all
                (select seq, event_id, event_time, topic, dead_letter, reason, payload from ledger_event
                 where %s order by seq desc limit $1)
                union all
                (select seq, event_id, event_time, topic, dead_letter, reason, payload from ledger_event
                 where %s
                 order by seq desc limit $1)
            ) alert
            order by seq desc limit $1""".formatted(ALWAYS_ALERT, VERIFY_NOT_OK);

    private final Pool pool;

    @Inject
    public ConsoleQueries(Pool pool) {
        this.pool = pool;
    }

    /** @return up to {@code limit} release requests, newest request first (requests whose event is unknown last) */
    public Uni<List<ReleaseListing>> releases(int limit) {
        return pool.preparedQuery(RELEASES).execute(Tuple.of(Topics.VOLUME_RELEASE_REQUESTED, limit)).map(rows -> {
            List<ReleaseListing> out = new ArrayList<>();
            for (Row r : rows) {
                LedgerRelease row = new LedgerRelease();
                row.requestId = r.getString("request_id");
                row.path = r.getString("path");
                row.dryRun = r.getBoolean("dry_run");
                row.gate = r.getString("gate");
                row.failed = r.getString("failed");
                row.released = r.getBoolean("released");
                row.failureReason = r.getString("failure_reason");
                row.plan = r.getString("plan");
                JsonNode request = tree(r.getString("payload"));
                String by = request == null || !request.hasNonNull("requestedBy") ? null : request.get("requestedBy").asText();
                out.add(new ReleaseListing(instant(r.getOffsetDateTime("event_time")), by, row.toRecord().toOutcome()));
            }
            return out;
        });
    }

    /** @return up to {@code limit} stored events of {@code assetId} on {@code topic} (dead letters excluded), chain order */
    public Uni<List<EventPayload>> payloads(String assetId, String topic, int limit) {
        return pool.preparedQuery(PAYLOADS).execute(Tuple.of(assetId, topic, limit)).map(rows -> {
            List<EventPayload> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new EventPayload(r.getString("event_id"), instant(r.getOffsetDateTime("event_time")),
                        tree(r.getString("payload"))));
            }
            return out;
        });
    }

    /**
     * Reads at most {@code limit} rows of each kind of alert (dead letters, stored events of the always-alert topics,
     * verifications that are not OK), each kind newest first along its own partial index (migration V35), so the cost
     * follows the limit, not the size of the ledger.
     *
     * @param limit alerts to answer at most, at least 1 (the HTTP resource bounds it)
     * @return up to {@code limit} alerts ({@link Alert#of}), newest first in the ledger's order (seq descending): every
     *         dead letter, every stored event of the other {@link Alert#TOPICS}, verifications only when their result
     *         is not OK; fewer when such an event has no payload (it makes no alert); fails with the pool's error when
     *         the query fails
     */
    public Uni<List<Alert>> alerts(int limit) {
        return pool.preparedQuery(ALERTS).execute(Tuple.of(limit)).map(rows -> {
            List<Alert> out = new ArrayList<>();
            for (Row r : rows) {
                Alert alert = Alert.of(r.getString("event_id"), instant(r.getOffsetDateTime("event_time")),
                        r.getString("topic"), r.getBoolean("dead_letter"), r.getString("reason"),
                        tree(r.getString("payload")));
                if (alert != null) {
                    out.add(alert);
                }
            }
            return out;
        });
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    private static JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return EventCodec.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
