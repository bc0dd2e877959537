package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.StowageEvent;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.stack.StowageStackResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.stowage.events.fixtures.ObjectVerifiedBuilder.objectVerified;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch's preload of {@code ledger_object} against the real PostgreSQL, on a table whose statistics mislead the
 * planner: 20,000 rows are inserted and the table analyzed as if every row had the same {@code object_key}
 * ({@code n_distinct = 1}), all inside one transaction that is rolled back. The 250 rows of a batch's keys must still
 * be found through an index, and the table never read whole. Without the ledger's own {@code enable_seqscan} setting
 * the planner takes each key for the whole table and scans it (in production: a table grown since its last
 * {@code ANALYZE}, where each key looked like 0.5 % of the table), so this test fails without the setting whatever
 * statistics the shared test database held before. The setting is on again after the preload.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ObjectPreloadPlanTest {
    private static final int ROWS = 20_000;
    private static final int KEYS = 250;

    @Inject
    ProjectionWriter projections;

    @Test
    void aBatchPreloadFindsItsObjectsByIndexAndNeverScansTheTable() throws Throwable {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<StowageEvent> events = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            String key = "datasets/plan-" + run + "/r1/shards/" + (i * 71) + ".tar.zst";
            events.add(objectVerified().meta(new EventMeta(UUID.randomUUID().toString(), 1, Instant.now(),
                            "dataset/plan-" + run + "/r1", null)).key(key, ObjectKind.SHARD)
                    .method(i % 2 == 0 ? VerifyMethod.HEAD : VerifyMethod.FULL_READ).result(VerifyResult.OK).build());
        }
        long[] seen = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Panache.currentTransaction()
                .invoke(tx -> tx.markForRollback())
                .chain(() -> Panache.getSession())
                .chain(session -> session.createNativeQuery("""
                                insert into ledger_object (asset_id, store, bucket, object_key, bytes, kind)
                                select 'dataset/plan-' || :run || '/r1', 'primary', 'plan-bucket',
                                       'datasets/plan-' || :run || '/r1/shards/' || i || '.tar.zst', 4096, 'SHARD'
                                from generate_series(0, :rows - 1) as i""")
                        .setParameter("run", run).setParameter("rows", ROWS).executeUpdate()
                        .chain(() -> session.createNativeQuery(
                                "alter table ledger_object alter column object_key set (n_distinct = 1)").executeUpdate())
                        .chain(() -> session.createNativeQuery("analyze ledger_object").executeUpdate())
                        .chain(() -> sequentialScans(session))
                        .chain(before -> projections.preload(events).chain(preloaded -> sequentialScans(session)
                                .chain(after -> session.createNativeQuery(
                                                "select current_setting('enable_seqscan') = 'on'", Boolean.class)
                                        .getSingleResult()
                                        .map(on -> new long[]{after - before, preloaded.objectRows(), on ? 1 : 0})))))));

        assertThat(seen[1]).as("object rows preloaded for the batch's keys").isEqualTo(KEYS);
        assertThat(seen[0]).as("sequential scans of ledger_object during the preload").isZero();
        assertThat(seen[2]).as("enable_seqscan on again for the rest of the batch's transaction").isEqualTo(1);
    }

    // this transaction's sequential scans of ledger_object so far
    private static Uni<Long> sequentialScans(org.hibernate.reactive.mutiny.Mutiny.Session session) {
        return session.createNativeQuery("select seq_scan from pg_stat_xact_user_tables where relname = 'ledger_object'",
                Long.class).getSingleResult();
    }
}
