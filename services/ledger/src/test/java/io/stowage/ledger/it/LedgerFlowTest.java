package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventMeta;
import io.stowage.events.ConditionResult;
import io.stowage.events.FailedCondition;
import io.stowage.events.ledger.ReleasePlan;
import io.stowage.events.GateDenied;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Publishes a realistic dataset flow, a redelivered event, a garbage record and a denied release to the
 * real Kafka broker, then checks the ledger's HTTP answers and its PostgreSQL rows.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class LedgerFlowTest {
    private static final String SHARD_SHA = "1".repeat(64);
    private static final String MEMBERS_SHA = "2".repeat(64);
    private static final String MANIFEST_SHA = "3".repeat(64);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String dataset = "speech-" + run;
    private final String assetId = "dataset/" + dataset + "/r1";
    private final String dir = "/data/" + dataset;
    private final String requestId = "req-" + run;
    private final Instant t0 = Instant.now();
    private int tick;

    @Test
    void storesEachEventOnceProjectsEvidenceAndKeepsDeadLetters() throws Exception {
        List<StowageEvent> flow = datasetFlow();
        String garbageId = "garbage-" + run;
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : flow) {
                producer.send(event);
            }
            producer.send(flow.get(0));
            producer.send(Topics.SHARD_BUILT, assetId, "{\"meta\": not json".getBytes(StandardCharsets.UTF_8),
                    Map.of(CloudEventHeaders.ID, garbageId, CloudEventHeaders.SUBJECT, assetId));
        }

        awaitStored("dlq:" + garbageId, Duration.ofSeconds(60));
        given().get("/api/events/dlq:" + garbageId).then()
                .body("topic", equalTo("shard.built.dlq")).body("assetId", equalTo(assetId));
        for (StowageEvent event : flow) {
            awaitStored(event.meta().eventId(), Duration.ofSeconds(30));
            given().get("/api/events/" + event.meta().eventId()).then().body("topic", equalTo(event.topic()));
        }

        assertRowsInPostgres(flow, garbageId);
        assertEvidence(flow);
        assertReleaseDenied(flow);
        assertEventList(flow);
    }

    private List<StowageEvent> datasetFlow() {
        String prefix = "datasets/" + dataset + "/r1/";
        String staging = "/staging/" + dataset + "/r1/";
        String shardKey = prefix + "shards/" + SHARD_SHA + ".tar.zst";
        String membersKey = prefix + "shards/" + SHARD_SHA + ".members.jsonl";
        String manifestKey = prefix + "manifest.json";
        List<StowageEvent> events = new ArrayList<>();
        events.add(ShardBuilt.of(meta(), dataset, "r1", 0, dir, staging + "00000.tar.zst", 4096, SHARD_SHA,
                staging + "00000.members.jsonl", 180, MEMBERS_SHA, 3, 9000));
        events.add(DatasetSealed.of(meta(), dataset, "r1", dir, staging + "manifest.json", 512, MANIFEST_SHA, 1, 3,
                9000, "CC-BY-4.0", "https://example.org/speech"));
        events.add(uploaded(shardKey, ObjectKind.SHARD, 4096, SHARD_SHA, staging + "00000.tar.zst"));
        events.add(uploaded(membersKey, ObjectKind.MEMBERS, 180, MEMBERS_SHA, staging + "00000.members.jsonl"));
        events.add(uploaded(manifestKey, ObjectKind.DATASET_MANIFEST, 512, MANIFEST_SHA, staging + "manifest.json"));
        events.add(verified(shardKey, ObjectKind.SHARD, VerifyMethod.HEAD, 4096, SHARD_SHA));
        events.add(verified(membersKey, ObjectKind.MEMBERS, VerifyMethod.HEAD, 180, MEMBERS_SHA));
        events.add(verified(manifestKey, ObjectKind.DATASET_MANIFEST, VerifyMethod.HEAD, 512, MANIFEST_SHA));
        events.add(verified(shardKey, ObjectKind.SHARD, VerifyMethod.FULL_READ, 4096, SHARD_SHA));
        events.add(ObjectUploadFailed.of(meta(), assetId, "replica", null, staging + "00000.tar.zst",
                "replica store unreachable: connection refused", false));
        events.add(ReleaseRequested.of(meta(), requestId, dir, false, "ops"));
        events.add(GateDenied.of(meta(), requestId, dir, false, List.of(
                new FailedCondition(2, "no-full-read", assetId + " has no verified full read"),
                new FailedCondition(5, "unaccounted-file", dir + "/notes.txt")), List.of(
                new ConditionResult(1, "objects-match", true, "3 objects match", List.of(events.get(2).meta().eventId())),
                new ConditionResult(2, "full-read", false, "no full read", List.of()),
                new ConditionResult(3, "provenance", true, "revision and source", List.of(events.get(1).meta().eventId())),
                new ConditionResult(4, "second-copy", true, "not a key checkpoint", List.of()),
                new ConditionResult(5, "directory", false, "unaccounted-file: notes.txt", List.of()))));
        return events;
    }

    private void assertRowsInPostgres(List<StowageEvent> flow, String garbageId) throws SQLException {
        StackEndpoints stack = EmbeddedStack.shared();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            for (StowageEvent event : flow) {
                assertThat(count(db, "select count(*) from ledger_event where event_id = ?", event.meta().eventId()))
                        .as("rows of %s", event.topic()).isEqualTo(1);
            }
            assertThat(count(db, "select count(*) from ledger_event where asset_id = ? and not dead_letter", assetId))
                    .as("the redelivered shard.built added nothing").isEqualTo(10);
            assertThat(count(db, "select count(*) from ledger_event where event_id like ?", "dlq:" + flow.get(0).meta().eventId()))
                    .as("the redelivery was not dead-lettered").isZero();
            assertThat(count(db, "select count(*) from ledger_event where event_id = ?", garbageId)).isZero();
            try (ResultSet dlq = query(db, "select topic, dead_letter, reason, payload from ledger_event where event_id = ?",
                    "dlq:" + garbageId)) {
                assertThat(dlq.next()).isTrue();
                assertThat(dlq.getString("topic")).isEqualTo("shard.built.dlq");
                assertThat(dlq.getBoolean("dead_letter")).isTrue();
                assertThat(dlq.getString("reason")).startsWith("not a ShardBuilt");
                assertThat(dlq.getString("payload")).isEqualTo("{\"meta\": not json");
            }
            try (ResultSet asset = query(db, "select kind, local_root, sealed, manifest_sha256, license from ledger_asset where asset_id = ?", assetId)) {
                assertThat(asset.next()).isTrue();
                assertThat(asset.getString("kind")).isEqualTo("dataset");
                assertThat(asset.getString("local_root")).isEqualTo(dir);
                assertThat(asset.getBoolean("sealed")).isTrue();
                assertThat(asset.getString("manifest_sha256")).isEqualTo(MANIFEST_SHA);
                assertThat(asset.getString("license")).isEqualTo("CC-BY-4.0");
            }
            assertThat(count(db, "select count(*) from ledger_object where asset_id = ? and head_result = 'OK'", assetId)).isEqualTo(3);
        }
    }

    private void assertEvidence(List<StowageEvent> flow) {
        ReleaseEvidence evidence = given().queryParam("path", dir).get("/api/evidence")
                .then().statusCode(200).extract().as(ReleaseEvidence.class);
        assertThat(evidence.assets()).extracting(AssetEvidence::assetId).containsExactly(assetId);
        AssetEvidence asset = evidence.assets().get(0);
        assertThat(asset.sealed()).isTrue();
        assertThat(asset.revision()).isEqualTo("r1");
        assertThat(asset.source()).isEqualTo("https://example.org/speech");
        assertThat(asset.uploadFailures()).containsExactly("replica store unreachable: connection refused");
        assertThat(asset.objects()).extracting(ObjectEvidence::kind, ObjectEvidence::bytes, ObjectEvidence::sha256,
                        ObjectEvidence::headResult, ObjectEvidence::fullReadResult)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(ObjectKind.SHARD, 4096L, SHARD_SHA, VerifyResult.OK, VerifyResult.OK),
                        org.assertj.core.groups.Tuple.tuple(ObjectKind.MEMBERS, 180L, MEMBERS_SHA, VerifyResult.OK, null),
                        org.assertj.core.groups.Tuple.tuple(ObjectKind.DATASET_MANIFEST, 512L, MANIFEST_SHA, VerifyResult.OK, null));
        // the gate's evidence ids: the sealing event, and per object its upload and the verifications behind its results
        assertThat(asset.sealedEventId()).isEqualTo(flow.get(1).meta().eventId());
        assertThat(asset.objects()).extracting(ObjectEvidence::kind, ObjectEvidence::uploadedEventId,
                        ObjectEvidence::headEventId, ObjectEvidence::fullReadEventId)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(ObjectKind.SHARD, flow.get(2).meta().eventId(),
                                flow.get(5).meta().eventId(), flow.get(8).meta().eventId()),
                        org.assertj.core.groups.Tuple.tuple(ObjectKind.MEMBERS, flow.get(3).meta().eventId(),
                                flow.get(6).meta().eventId(), null),
                        org.assertj.core.groups.Tuple.tuple(ObjectKind.DATASET_MANIFEST, flow.get(4).meta().eventId(),
                                flow.get(7).meta().eventId(), null));

        assertThat(given().queryParam("path", dir + "/sub/dir").get("/api/evidence").then().statusCode(200)
                .extract().as(ReleaseEvidence.class).assets()).extracting(AssetEvidence::assetId).containsExactly(assetId);
        assertThat(given().queryParam("path", dir + "2").get("/api/evidence").then().statusCode(200)
                .extract().as(ReleaseEvidence.class).assets()).isEmpty();
        given().queryParam("path", "relative/dir").get("/api/evidence").then().statusCode(400);
        assertThat(given().queryParam("id", assetId).get("/api/assets").then().statusCode(200)
                .extract().as(AssetEvidence.class)).isEqualTo(asset);
        given().queryParam("id", "dataset/nope/r1").get("/api/assets").then().statusCode(404);
    }

    private void assertReleaseDenied(List<StowageEvent> flow) {
        ReleaseOutcome outcome = given().get("/api/releases/" + requestId).then().statusCode(200)
                .extract().as(ReleaseOutcome.class);
        GateDenied denial = (GateDenied) flow.get(flow.size() - 1);
        assertThat(outcome).isEqualTo(new ReleaseOutcome(requestId, dir, false, "denied", List.of(
                new FailedCondition(2, "no-full-read", assetId + " has no verified full read"),
                new FailedCondition(5, "unaccounted-file", dir + "/notes.txt")), false, null,
                new ReleasePlan(denial.meta().eventId(), List.of(), denial.conditions(), 0, 0, null, List.of())));
        assertThat(outcome.plan().conditions()).extracting(ConditionResult::condition, ConditionResult::passed)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, true), org.assertj.core.groups.Tuple.tuple(2, false),
                        org.assertj.core.groups.Tuple.tuple(3, true), org.assertj.core.groups.Tuple.tuple(4, true),
                        org.assertj.core.groups.Tuple.tuple(5, false));
        assertThat(outcome.plan().conditions().get(0).evidence()).containsExactly(flow.get(2).meta().eventId());
        given().get("/api/releases/never-" + run).then().statusCode(404);
        given().get("/api/events/never-" + run).then().statusCode(404);

        LedgerStatus status = given().get("/api/status").then().statusCode(200).extract().as(LedgerStatus.class);
        assertThat(status.gatesDenied()).isGreaterThanOrEqualTo(1);
        assertThat(status.deadLetters()).isGreaterThanOrEqualTo(1);
        assertThat(status.objectsFullRead()).isGreaterThanOrEqualTo(1);
        assertThat(status.events()).isGreaterThanOrEqualTo(13);
    }

    private void assertEventList(List<StowageEvent> flow) {
        List<String> expected = new ArrayList<>(flow.subList(0, 10).stream().map(e -> e.meta().eventId()).toList());
        expected.add("dlq:garbage-" + run);
        List<String> listed = given().queryParam("assetId", assetId).get("/api/events").then().statusCode(200)
                .body("[0].type", equalTo("io.stowage.shard.built.v1"))
                .extract().jsonPath().getList("eventId", String.class);
        assertThat(listed).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(listed.subList(0, 10)).containsExactlyElementsOf(expected.subList(0, 10));
    }

    // polls the status only: a failed RestAssured assertion would print every request
    private static void awaitStored(String eventId, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/api/events/" + eventId).statusCode() == 200);
    }

    private EventMeta meta() {
        return new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(tick++), assetId, null);
    }

    private ObjectUploaded uploaded(String key, ObjectKind kind, long bytes, String sha, String localPath) {
        return ObjectUploaded.of(meta(), assetId, "primary", "stowage-primary", key, kind, bytes, sha, "etag-" + tick,
                localPath, false);
    }

    private ObjectVerified verified(String key, ObjectKind kind, VerifyMethod method, long bytes, String sha) {
        return ObjectVerified.of(meta(), assetId, "primary", "stowage-primary", key, kind, method, VerifyResult.OK,
                bytes, sha, bytes, sha, null);
    }

    private static int count(Connection db, String sql, String parameter) throws SQLException {
        try (ResultSet rows = query(db, sql, parameter)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static ResultSet query(Connection db, String sql, String parameter) throws SQLException {
        var statement = db.prepareStatement(sql);
        statement.setString(1, parameter);
        statement.closeOnCompletion();
        return statement.executeQuery();
    }
}
