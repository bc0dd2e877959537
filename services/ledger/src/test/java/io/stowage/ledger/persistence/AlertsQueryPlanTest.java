package io.stowage.ledger.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.EventCodec;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.Alert;
import io.stowage.stack.StowageStackResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statement behind {@code GET /api/alerts} against the real PostgreSQL, on a ledger of 6,000 extra rows where
 * alerts are rare among the newest: it answers the same rows in the same order as the filter it replaced, and
 * {@code EXPLAIN ANALYZE} shows it reads ledger_event only through the V35 indexes and examines a number of rows that
 * follows the limit, not the table. The rows are inserted in a transaction that is rolled back, so the hash chain the
 * other tests verify never sees them.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class AlertsQueryPlanTest {
    private static final int LIMIT = 20;
    private static final long BASE_SEQ = 1_000_000_000L;

    // the statement before V35, as the reference for which rows are alerts and in which order
    private static final String REFERENCE = """
            select event_id from ledger_event
            where dead_letter
               or topic = any($1)
               or case when not dead_letter and topic = $2 and payload is not null
                       then payload::jsonb ->> 'result' <> 'OK' else false end
            order by seq desc limit $3""";

    // Rows 1..750 (the oldest) mix every kind of row, alert or not: dead letters of an always-alert topic (must come
    // once), of a verification (never cast) and of another topic, provider alerts with and without a payload, failed
    // releases, MISMATCH / OK / payload-less verifications. Rows 751..6000 are OK verifications and built shards,
    // except one MISMATCH (3000) and one dead letter (5990).
    private static final String INSERT = """
            with n as (
                select i, case when i = 5990 then 'dead' when i = 3000 then 'mismatch'
                               when i > 750 then case when i %% 2 = 0 then 'ok' else 'other' end
                               else (array['dead', 'alert', 'mismatch', 'dead-other', 'null-verify', 'null-alert',
                                           'failed', 'ok', 'other', 'dead-verify'])[1 + i %% 10] end as k
                from generate_series(1, 6000) as i)
            insert into ledger_event (event_id, seq, chain_hash, topic, dead_letter, payload, kafka_offset,
                                      kafka_partition, recorded_at, event_time)
            select 'plan-' || i, $1 + i, repeat('0', 64),
                   case k when 'dead' then '%1$s' when 'alert' then '%1$s' when 'null-alert' then '%1$s'
                          when 'failed' then '%2$s' when 'dead-other' then '%3$s' when 'other' then '%4$s'
                          else '%5$s' end,
                   k in ('dead', 'dead-other', 'dead-verify'),
                   case k when 'dead' then 'not json' when 'dead-verify' then '{"result": "MISM'
                          when 'dead-other' then '{"result":"OK"' when 'alert' then '{"code":"ttl-reached"}'
                          when 'failed' then '{"path":"/hot/x"}' when 'mismatch' then '{"result":"MISMATCH"}'
                          when 'ok' then '{"result":"OK"}' when 'other' then '{}' end,
                   i, 0, now(), now()
            from n""".formatted(Topics.PROVIDER_ALERT, Topics.VOLUME_RELEASE_FAILED, Topics.dlq(Topics.SHARD_BUILT),
            Topics.SHARD_BUILT, Topics.OBJECT_VERIFIED);

    @Inject
    Pool pool;

    @Test
    void theAlertsStatementAnswersTheOldRowsAndReadsOnlyAboutTheLimitThroughItsIndexes() throws Exception {
        SqlConnection conn = pool.getConnection().await().indefinitely();
        Transaction tx = conn.begin().await().indefinitely();
        try {
            // one snapshot: events the ledger stores meanwhile must not make the two statements differ
            conn.query("set transaction isolation level repeatable read").execute().await().indefinitely();
            conn.preparedQuery(INSERT).execute(Tuple.of(BASE_SEQ)).await().indefinitely();
            conn.query("analyze ledger_event").execute().await().indefinitely();

            for (int limit : List.of(1, 7, LIMIT, 150, 100_000)) {
                assertThat(ids(conn, ConsoleQueries.ALERTS, Tuple.of(limit)))
                        .as("limit %d", limit)
                        .containsExactlyElementsOf(ids(conn, REFERENCE, referenceArguments(limit)));
            }
            assertThat(ids(conn, ConsoleQueries.ALERTS, Tuple.of(4)))
                    .startsWith("plan-5990", "plan-3000", "plan-750");

            JsonNode plan = EventCodec.mapper().readTree(String.valueOf(conn.preparedQuery(
                            "explain (analyze, format json) " + ConsoleQueries.ALERTS)
                    .execute(Tuple.of(LIMIT)).await().indefinitely().iterator().next().getValue(0)));
            List<JsonNode> scans = new ArrayList<>();
            ledgerEventScans(plan.get(0).get("Plan"), scans);
            Set<String> nodeTypes = new HashSet<>();
            Set<String> indexes = new HashSet<>();
            long examined = 0;
            for (JsonNode scan : scans) {
                nodeTypes.add(scan.get("Node Type").asText());
                indexes.add(scan.path("Index Name").asText());
                examined += (scan.get("Actual Rows").asLong() + scan.path("Rows Removed by Filter").asLong()
                        + scan.path("Rows Removed by Index Recheck").asLong()) * scan.get("Actual Loops").asLong();
            }
            assertThat(nodeTypes).as(plan.toPrettyString()).doesNotContain("Seq Scan", "Bitmap Heap Scan");
            assertThat(indexes).as(plan.toPrettyString()).contains("ledger_event_dead_letter_seq",
                    "ledger_event_always_alert_seq", "ledger_event_verify_not_ok_seq");
            // three branches (dead letters, always-alert topics, verifications), each reads at most LIMIT rows
            assertThat(examined).as(plan.toPrettyString()).isLessThanOrEqualTo(3L * LIMIT);
        } finally {
            tx.rollback().await().indefinitely();
            conn.close().await().indefinitely();
        }
    }

    private static Tuple referenceArguments(int limit) {
        String[] always = Alert.TOPICS.stream().filter(t -> !Topics.OBJECT_VERIFIED.equals(t)).toArray(String[]::new);
        return Tuple.of(always, Topics.OBJECT_VERIFIED, limit);
    }

    private static List<String> ids(SqlConnection conn, String sql, Tuple arguments) {
        List<String> out = new ArrayList<>();
        for (Row r : conn.preparedQuery(sql).execute(arguments).await().indefinitely()) {
            out.add(r.getString("event_id"));
        }
        return out;
    }

    private static void ledgerEventScans(JsonNode node, List<JsonNode> out) {
        if ("ledger_event".equals(node.path("Relation Name").asText())) {
            out.add(node);
        }
        for (JsonNode child : node.path("Plans")) {
            ledgerEventScans(child, out);
        }
    }
}
