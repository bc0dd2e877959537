package io.stowage.ledger.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.EventCodec;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.DeadLetterEvidence;
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
 * The gate's dead-letter lookup ({@code EvidenceQueries.deadLettersOf}) against the real PostgreSQL, for an asset with
 * 20,000 stored events (what years of scrub re-reads add) and three dead letters, in a ledger with dead letters of other
 * assets: it answers exactly the asset's dead letters on evidence topics, and {@code EXPLAIN ANALYZE} shows it reads
 * ledger_event only through the partial index of dead letters by asset (V36), examining the asset's dead letters, not
 * its events nor the ledger's other dead letters. The statement is the
 * one Hibernate generates for the Panache query ({@code deadLetter = true and assetId in ?1 and topic in ?2}). The rows
 * are inserted in a transaction that is rolled back, so the hash chain other tests verify never sees them.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class DeadLetterQueryPlanTest {
    private static final long BASE_SEQ = 2_000_000_000L;

    // the SQL of LedgerEvent.list("deadLetter = true and assetId in ?1 and topic in ?2", …) as Hibernate 6 writes it
    private static final String LOOKUP = """
            select le1_0.event_id from ledger_event le1_0
            where le1_0.dead_letter=true and le1_0.asset_id = any($1) and le1_0.topic = any($2)""";

    // 20,000 events of asset plan-a (verifications and uploads), then its dead letters: two on evidence topics, one on a
    // topic that is not evidence; 500 dead letters of another asset, plan-b, and 4,500 of its events.
    private static final String INSERT = """
            with n as (select i from generate_series(1, 25010) as i)
            insert into ledger_event (event_id, asset_id, seq, chain_hash, topic, dead_letter, payload, kafka_offset,
                                      kafka_partition, recorded_at, event_time)
            select 'dlplan-' || i,
                   case when i <= 20000 or i in (25001, 25002, 25003) then 'plan-a' else 'plan-b' end,
                   $1 + i, repeat('0', 64),
                   case when i = 25001 then '%1$s' when i = 25002 then '%2$s' when i = 25003 then '%3$s'
                        when i = 25004 or i <= 20500 and i > 20000 then '%1$s' when i %% 3 = 0 then '%4$s' else '%5$s' end,
                   (i > 25000 and i <= 25004) or (i > 20000 and i <= 20500),
                   '{}', i, 0, now(), now()
            from n""".formatted(Topics.dlq(Topics.OBJECT_VERIFIED), Topics.dlq(Topics.SHARD_BUILT),
            Topics.dlq(Topics.PROVIDER_ALERT), Topics.OBJECT_UPLOADED, Topics.OBJECT_VERIFIED);

    @Inject
    Pool pool;

    @Test
    void theLookupFindsTheAssetsDeadLettersThroughTheirIndexWithoutWalkingItsEvents() throws Exception {
        SqlConnection conn = pool.getConnection().await().indefinitely();
        Transaction tx = conn.begin().await().indefinitely();
        try {
            conn.preparedQuery(INSERT).execute(Tuple.of(BASE_SEQ)).await().indefinitely();
            conn.query("analyze ledger_event").execute().await().indefinitely();
            Tuple arguments = Tuple.of(new String[] {"plan-a"}, DeadLetterEvidence.TOPICS.toArray(String[]::new));

            List<String> found = new ArrayList<>();
            for (Row r : conn.preparedQuery(LOOKUP).execute(arguments).await().indefinitely()) {
                found.add(r.getString("event_id"));
            }
            assertThat(found).containsExactlyInAnyOrder("dlplan-25001", "dlplan-25002");

            JsonNode plan = EventCodec.mapper().readTree(String.valueOf(conn.preparedQuery("explain (analyze, format json) "
                    + LOOKUP).execute(arguments).await().indefinitely().iterator().next().getValue(0)));
            List<JsonNode> scans = new ArrayList<>();
            ledgerEventScans(plan.get(0).get("Plan"), scans);
            Set<String> indexes = new HashSet<>();
            long examined = 0;
            for (JsonNode scan : scans) {
                assertThat(scan.get("Node Type").asText()).as(plan.toPrettyString()).isNotEqualTo("Seq Scan");
                indexes.add(scan.path("Index Name").asText());
                examined += (scan.get("Actual Rows").asLong() + scan.path("Rows Removed by Filter").asLong()
                        + scan.path("Rows Removed by Index Recheck").asLong()) * scan.get("Actual Loops").asLong();
            }
            assertThat(indexes).as(plan.toPrettyString()).containsExactly("ledger_event_dead_letter_asset");
            // the asset's three dead letters (one filtered out by topic), not its 20,000 events
            assertThat(examined).as(plan.toPrettyString()).isLessThanOrEqualTo(3);
        } finally {
            tx.rollback().await().indefinitely();
            conn.close().await().indefinitely();
        }
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
