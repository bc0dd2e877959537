package io.stowage.ledger.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Provenance;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.ledger.domain.ProjectionDifference;
import io.stowage.ledger.domain.ReplayRecord;
import io.stowage.ledger.domain.ReplayReport;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static io.stowage.auth.TestTokens.givenReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code audit replay} against the real broker and PostgreSQL: a demo-like run (a dataset with its shard, members
 * and manifest uploaded and verified, an upload failure, a checkpoint pinned and promoted to a model revision, a denied
 * release, one event redelivered) is consumed by the ledger; a replay of every topic into a fresh schema reports no difference for it; after one
 * {@code ledger_object} row's SHA-256 is changed by hand it reports exactly that row, with both values; the replay
 * schema is dropped afterwards.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ReplayTest {
    private static final String SHA = "a".repeat(64);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "replay-" + UUID.randomUUID().toString().substring(0, 8);
    private final String dataset = run;
    private final String assetId = "dataset/" + dataset + "/r1";
    private final String dir = "/data/" + dataset;
    // 900 ns past a microsecond: PostgreSQL keeps microseconds, so the replay must drop the nanoseconds exactly as
    // the live path does (truncate, not round)
    private final Instant t0 = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS).plusNanos(900);
    private int tick;

    @Test
    void replayOfACleanRunIsIdenticalAndAHandEditIsTheOneDifference() throws Exception {
        List<StowageEvent> flow = flow();
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : flow) {
                producer.send(event);
            }
            producer.send(flow.get(3));
        }
        for (StowageEvent event : flow) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }

        ReplayReport clean = replay();
        assertThat(clean.differences()).as("clean run").isEmpty();
        assertThat(clean.identical()).isTrue();
        assertThat(clean.events()).isGreaterThanOrEqualTo(flow.size());
        assertThat(clean.duplicates()).as("the redelivered record").isGreaterThanOrEqualTo(1);
        assertThat(clean.rows().get("ledger_object")).as("shard, members, manifest").isGreaterThanOrEqualTo(3);
        assertThat(clean.rows().get("ledger_checkpoint_step")).as("the step, published and pinned").isGreaterThanOrEqualTo(1);
        assertThat(clean.rows().get("ledger_model_promotion")).as("the revision promoted from it").isGreaterThanOrEqualTo(1);
        assertThat(clean.liveCaughtUp()).isTrue();
        assertThat(schemaExists(clean.schema())).as("replay schema dropped").isFalse();
        ReplayRecord recorded = newestReplay();
        assertThat(recorded.requestedBy()).isEqualTo("test-operator");
        assertThat(recorded.identical()).isTrue();
        assertThat(recorded.differences()).isZero();
        assertThat(recorded.scope()).isEqualTo(run);
        assertThat(recorded.records()).isEqualTo(clean.records());
        givenReader().queryParam("limit", 0).get("/api/audit/replays").then().statusCode(400);

        String key = "datasets/" + dataset + "/r1/manifest.json";
        StackEndpoints stack = EmbeddedStack.shared();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            assertThat(update(db, "update ledger_object set sha256 = ? where object_key = ?", "f".repeat(64), key)).isEqualTo(1);
            try {
                ReplayReport edited = replay();
                assertThat(edited.identical()).isFalse();
                assertThat(edited.differences()).hasSize(1);
                ProjectionDifference d = edited.differences().get(0);
                assertThat(d.table()).isEqualTo("ledger_object");
                assertThat(d.assetId()).isEqualTo(assetId);
                assertThat(d.key()).isEqualTo("primary/stowage-primary/" + key);
                assertThat(d.live().get("sha256").asText()).isEqualTo("f".repeat(64));
                assertThat(d.replay().get("sha256").asText()).isEqualTo(SHA);
                assertThat(differingColumns(d)).containsExactly("sha256");
                assertThat(newestReplay()).as("recorded with its difference")
                        .satisfies(r -> assertThat(r.identical()).isFalse())
                        .satisfies(r -> assertThat(r.differences()).isEqualTo(1))
                        .satisfies(r -> assertThat(r.finishedAt()).isAfterOrEqualTo(recorded.finishedAt()));
            } finally {
                update(db, "update ledger_object set sha256 = ? where object_key = ?", SHA, key);
            }
            // a lease dropped from the live projection is a difference too: the lease is rebuilt from the topic
            String step = "checkpoint/" + run + "/run1/000000000100";
            String leaseUntil;
            try (var read = db.prepareStatement("select lease_until::text from ledger_checkpoint_step where asset_id = ?")) {
                read.setString(1, step);
                try (var rows = read.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    leaseUntil = rows.getString(1);
                }
            }
            assertThat(leaseUntil).as("the lease is projected").isNotNull();
            try {
                assertThat(update(db, "update ledger_checkpoint_step set lease_until = null where lease_until::text = ?"
                        + " and asset_id = ?", leaseUntil, step)).isEqualTo(1);
                ReplayReport edited = replay();
                assertThat(edited.identical()).isFalse();
                assertThat(edited.differences()).singleElement().satisfies(d -> {
                    assertThat(d.table()).isEqualTo("ledger_checkpoint_step");
                    assertThat(differingColumns(d)).containsExactly("lease_until");
                });
            } finally {
                update(db, "update ledger_checkpoint_step set lease_until = ?::timestamptz where asset_id = ?", leaseUntil, step);
            }
        }
        assertThat(replay().identical()).as("restored row").isTrue();
    }

    /** @return the newest recorded replay, as a reader reads it */
    private static ReplayRecord newestReplay() {
        ReplayRecord[] newest = givenReader().queryParam("limit", 1).get("/api/audit/replays").then().statusCode(200)
                .extract().as(ReplayRecord[].class);
        assertThat(newest).hasSize(1);
        return newest[0];
    }

    private ReplayReport replay() {
        return given().queryParam("scope", run).post("/api/audit/replay").then().statusCode(200)
                .extract().as(ReplayReport.class);
    }

    private static List<String> differingColumns(ProjectionDifference d) {
        List<String> names = new ArrayList<>();
        d.live().fieldNames().forEachRemaining(name -> {
            JsonNode other = d.replay().get(name);
            if (!d.live().get(name).equals(other)) {
                names.add(name);
            }
        });
        return names;
    }

    private List<StowageEvent> flow() {
        String prefix = "datasets/" + dataset + "/r1/";
        String staging = "/staging/" + dataset + "/r1/";
        String shardKey = prefix + "shards/" + SHA + ".tar.zst";
        String membersKey = prefix + "shards/" + SHA + ".members.jsonl";
        String manifestKey = prefix + "manifest.json";
        List<StowageEvent> events = new ArrayList<>();
        events.add(ShardBuilt.of(meta(assetId), dataset, "r1", 0, dir, staging + "00000.tar.zst", 4096, SHA,
                staging + "00000.members.jsonl", 180, SHA, 3, 9000));
        events.add(DatasetSealed.of(meta(assetId), dataset, "r1", dir, staging + "manifest.json", 512, SHA, 1, 3,
                9000, "CC-BY-4.0", "https://example.org/speech"));
        events.add(uploaded(shardKey, ObjectKind.SHARD, 4096, staging + "00000.tar.zst"));
        events.add(uploaded(membersKey, ObjectKind.MEMBERS, 180, staging + "00000.members.jsonl"));
        events.add(uploaded(manifestKey, ObjectKind.DATASET_MANIFEST, 512, staging + "manifest.json"));
        // a verifier expects what the upload said (results belong to the object's content, not its key)
        Map<String, Long> sizes = Map.of(shardKey, 4096L, membersKey, 180L, manifestKey, 512L);
        for (String key : List.of(shardKey, membersKey, manifestKey)) {
            events.add(ObjectVerified.of(meta(assetId), assetId, "primary", "stowage-primary", key, ObjectKind.SHARD,
                    VerifyMethod.HEAD, VerifyResult.OK, sizes.get(key), SHA, sizes.get(key), SHA, null));
        }
        events.add(ObjectVerified.of(meta(assetId), assetId, "primary", "stowage-primary", shardKey, ObjectKind.SHARD,
                VerifyMethod.FULL_READ, VerifyResult.OK, 4096, SHA, 4096, SHA, null));
        events.add(ObjectUploadFailed.of(meta(assetId), assetId, "replica", null, staging + "00000.tar.zst",
                "replica store unreachable: connection refused", false));
        String checkpoint = "checkpoint/" + run + "/run1/000000000100";
        events.add(CheckpointPublished.of(meta(checkpoint), run, "run1", 100, "/ckpt/" + run + "/step-100",
                "/staging/" + run + "/100.json", SHA, 1, 4096, true, List.of("tag"), new Provenance("abc123", SHA, SHA),
                java.util.Map.of("val_loss", 0.25),
                new io.stowage.events.RetentionDecided.Policy(3, 1, "val_loss", "min", null, "PT6H", null, false)));
        events.add(io.stowage.events.CheckpointPinned.of(meta(checkpoint), run, "run1", 100, true, "ops"));
        EventMeta leaseMeta = meta(checkpoint);
        events.add(io.stowage.events.CheckpointPinned.lease(leaseMeta, run, "run1", 100, "trainer",
                leaseMeta.time().plusSeconds(3600)));
        events.add(io.stowage.events.ModelPublished.of(meta("model/" + run + "-m/r1"), run + "-m", "r1",
                "/staging/models/" + run + "-m/r1/promoted", "/staging/" + run + "-m.json", 300, SHA, 1, 4096, "MIT",
                checkpoint, checkpoint));
        String requestId = run + "-req";
        events.add(ReleaseRequested.of(meta("release/" + requestId), requestId, dir, false, "ops"));
        events.add(GateDenied.of(meta("release/" + requestId), requestId, dir, false,
                List.of(new FailedCondition(2, "no-full-read", assetId + " has no verified full read"))));
        return events;
    }

    private ObjectUploaded uploaded(String key, ObjectKind kind, long bytes, String localPath) {
        return ObjectUploaded.of(meta(assetId), assetId, "primary", "stowage-primary", key, kind, bytes, SHA, "etag-" + tick,
                localPath, false);
    }

    private EventMeta meta(String correlation) {
        return new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(tick++), correlation, null);
    }

    private static boolean schemaExists(String schema) throws Exception {
        StackEndpoints stack = EmbeddedStack.shared();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             PreparedStatement s = db.prepareStatement("select count(*) from information_schema.schemata where schema_name = ?")) {
            s.setString(1, schema);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1) > 0;
            }
        }
    }

    private static int update(Connection db, String sql, String value, String key) throws Exception {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setString(1, value);
            s.setString(2, key);
            return s.executeUpdate();
        }
    }
}
