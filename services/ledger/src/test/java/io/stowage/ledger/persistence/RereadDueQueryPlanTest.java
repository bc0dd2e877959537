package io.stowage.ledger.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.EventCodec;
import io.stowage.stack.StowageStackResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator's re-read of one asset ({@code GET /api/coverage/due?asset=}, {@link CoverageQueries#DUE_OF_ASSET})
 * against the real PostgreSQL, in a ledger of 60,000 objects of which 12 are the asset's: it answers exactly the
 * asset's objects, never re-read first, and {@code EXPLAIN ANALYZE} of the statement's <em>generic</em> plan (what a
 * prepared statement may settle on after a few executions; forced here with {@code plan_cache_mode} on an SQL
 * {@code PREPARE}) reads
 * ledger_object only through its index by asset and examines the asset's 12 rows, not the ledger in scrub order. The
 * rows are inserted in a transaction that is rolled back.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class RereadDueQueryPlanTest {
    // 60,000 objects; the 12 of asset plan-due have i = 5000·k; every third object was re-read (for plan-due: k = 3, 6, 9,
    // 12), the others never
    private static final String INSERT = """
            insert into ledger_object (asset_id, bucket, bytes, object_key, sha256, store, uploaded_at,
                                       full_read_verified_at, full_read_result, kind)
            select case when i % 5000 = 0 then 'plan-due' else 'plan-other-' || (i % 997) end,
                   'b', 1024, 'plan/due/' || i, repeat('a', 64), case when i % 2 = 0 then 'primary' else 'replica' end,
                   $1::timestamptz, case when i % 3 = 0 then $1::timestamptz else null end, case when i % 3 = 0 then 'OK' else null end, 'SHARD'
            from generate_series(1, 60000) as i""";

    @Inject
    Pool pool;

    @Test
    void theAssetsObjectsAreFoundThroughTheAssetIndexEvenUnderAGenericPlan() throws Exception {
        SqlConnection conn = pool.getConnection().await().indefinitely();
        Transaction tx = conn.begin().await().indefinitely();
        try {
            OffsetDateTime uploaded = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
            conn.preparedQuery(INSERT).execute(Tuple.of(uploaded)).await().indefinitely();
            conn.query("analyze ledger_object").execute().await().indefinitely();
            Tuple arguments = Tuple.of(null, uploaded.plusDays(1), 1000, "plan-due");

            List<String> keys = new ArrayList<>();
            for (Row r : conn.preparedQuery(CoverageQueries.DUE_OF_ASSET).execute(arguments).await().indefinitely()) {
                assertThat(r.getString("asset_id")).isEqualTo("plan-due");
                keys.add(r.getString("object_key"));
            }
            assertThat(keys).hasSize(12);
            assertThat(keys.subList(0, 8)).as("the eight never re-read first, by key")
                    .containsExactly("plan/due/10000", "plan/due/20000", "plan/due/25000", "plan/due/35000",
                            "plan/due/40000", "plan/due/5000", "plan/due/50000", "plan/due/55000");
            assertThat(keys.subList(8, 12)).containsExactlyInAnyOrder("plan/due/15000", "plan/due/30000",
                    "plan/due/45000", "plan/due/60000");

            conn.query("set local plan_cache_mode = force_generic_plan").execute().await().indefinitely();

            // the generic plan, as PostgreSQL may cache it for the prepared statement: parameters stay parameters
            conn.query("prepare due_of_asset(text, timestamptz, int, text) as " + CoverageQueries.DUE_OF_ASSET)
                    .execute().await().indefinitely();
            JsonNode plan = EventCodec.mapper().readTree(String.valueOf(conn.query("explain (analyze, format json) "
                    + "execute due_of_asset(null, '" + uploaded.plusDays(1) + "', 1000, 'plan-due')").execute().await()
                    .indefinitely().iterator().next().getValue(0)));
            assertThat(plan.toString()).as("a generic plan").doesNotContain("'plan-due'::text");
            List<JsonNode> scans = new ArrayList<>();
            Set<String> indexes = new HashSet<>();
            scansOf(plan.get(0).get("Plan"), scans, indexes);
            long examined = 0;
            for (JsonNode scan : scans) {
                assertThat(scan.get("Node Type").asText()).as(plan.toPrettyString()).isNotEqualTo("Seq Scan");
                examined += (scan.get("Actual Rows").asLong() + scan.path("Rows Removed by Filter").asLong()
                        + scan.path("Rows Removed by Index Recheck").asLong()) * scan.get("Actual Loops").asLong();
            }
            assertThat(indexes).as(plan.toPrettyString()).containsExactly("ledger_object_asset");
            assertThat(examined).as(plan.toPrettyString()).isLessThanOrEqualTo(12);
        } finally {
            tx.rollback().await().indefinitely();
            conn.close().await().indefinitely();
        }
    }

    /** Collects the plan's scans of ledger_object and the name of every index any node reads. */
    private static void scansOf(JsonNode node, List<JsonNode> out, Set<String> indexes) {
        if ("ledger_object".equals(node.path("Relation Name").asText())) {
            out.add(node);
        }
        if (node.has("Index Name")) {
            indexes.add(node.get("Index Name").asText());
        }
        for (JsonNode child : node.path("Plans")) {
            scansOf(child, out, indexes);
        }
    }
}
