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

/**
 * Read-only listings for browsing pages (the operator console): the newest release requests with their outcomes and
 * who asked when, and the stored payloads of one asset's events on one topic (shard manifests, verifications).
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

    // newest first; a verification counts only when its result is not OK (payload is the event's JSON text; the CASE
    // keeps a dead letter's payload, which may not be JSON, from ever being cast)
    private static final String ALERTS = """
            select event_id, event_time, topic, dead_letter, reason, payload from ledger_event
            where dead_letter
               or topic = any($1)
               or case when not dead_letter and topic = $2 and payload is not null
                       then payload::jsonb ->> 'result' <> 'OK' else false end
            order by seq desc limit $3""";

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
     * @return up to {@code limit} alerts ({@link Alert#of}), newest first in the ledger's order: every dead letter and
     *         every event of {@link Alert#TOPICS}, verifications only when their result is not OK
     */
    public Uni<List<Alert>> alerts(int limit) {
        String[] always = Alert.TOPICS.stream().filter(t -> !Topics.OBJECT_VERIFIED.equals(t)).toArray(String[]::new);
        return pool.preparedQuery(ALERTS).execute(Tuple.of(always, Topics.OBJECT_VERIFIED, limit)).map(rows -> {
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
