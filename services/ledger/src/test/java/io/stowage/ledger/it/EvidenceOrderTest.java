package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The evidence the gate reads ({@code GET /api/evidence}) against the real broker and PostgreSQL: the newest HEAD
 * and full-read results of an object are the ones the ledger stored last, whatever the producers' event times say,
 * a re-upload of the key with other content starts with no results, and a dead letter about the asset is shown until
 * every object was read in full after it.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class EvidenceOrderTest {
    private static final String SHA = "d".repeat(64);
    private static final String OTHER_SHA = "e".repeat(64);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "order-" + UUID.randomUUID().toString().substring(0, 8);
    private final String asset = "dataset/" + run + "/r1";
    private final String root = "/data/" + run;
    private final String key = "datasets/" + run + "/r1/manifest.json";
    private final Instant t0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void theNewestResultIsTheOneStoredLastAndAReUploadInheritsNone() throws Exception {
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            stored(producer, ShardBuilt.of(meta(0), run, "r1", 0, root, "/s/0.tar.zst", 10, SHA, "/s/0.members.jsonl", 5,
                    SHA, 1, 10));
            stored(producer, uploaded(0, 10, SHA));
            stored(producer, verified(20, VerifyMethod.HEAD, VerifyResult.OK, 10, SHA));
            ObjectVerified headMismatch = verified(5, VerifyMethod.HEAD, VerifyResult.MISMATCH, 10, SHA);
            stored(producer, headMismatch);
            stored(producer, verified(30, VerifyMethod.FULL_READ, VerifyResult.OK, 10, SHA));
            ObjectVerified fullReadMissing = verified(1, VerifyMethod.FULL_READ, VerifyResult.MISSING, 10, SHA);
            stored(producer, fullReadMissing);

            JsonPath evidence = evidence();
            assertThat(evidence.getString("assets[0].objects[0].headResult")).isEqualTo("MISMATCH");
            assertThat(evidence.getString("assets[0].objects[0].headEventId")).isEqualTo(headMismatch.meta().eventId());
            assertThat(evidence.getString("assets[0].objects[0].fullReadResult")).isEqualTo("MISSING");
            assertThat(evidence.getString("assets[0].objects[0].fullReadEventId")).isEqualTo(fullReadMissing.meta().eventId());

            ObjectUploaded reUpload = uploaded(2, 12, OTHER_SHA); // other content, an older clock
            stored(producer, reUpload);
            stored(producer, verified(40, VerifyMethod.FULL_READ, VerifyResult.OK, 10, SHA)); // of the old content

            JsonPath after = evidence();
            assertThat(after.getString("assets[0].objects[0].sha256")).isEqualTo(OTHER_SHA);
            assertThat(after.getLong("assets[0].objects[0].bytes")).isEqualTo(12);
            assertThat(after.getString("assets[0].objects[0].uploadedEventId")).isEqualTo(reUpload.meta().eventId());
            assertThat(after.getString("assets[0].objects[0].headResult")).isNull();
            assertThat(after.getString("assets[0].objects[0].fullReadResult")).isNull();
            assertThat(after.getString("assets[0].objects[0].fullReadEventId")).isNull();
        }
    }

    @Test
    void aDeadLetterAboutTheAssetIsShownUntilEveryObjectIsReadInFullAfterIt() throws Exception {
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            stored(producer, ShardBuilt.of(meta(0), run, "r1", 0, root, "/s/0.tar.zst", 10, SHA, "/s/0.members.jsonl", 5,
                    SHA, 1, 10));
            stored(producer, uploaded(0, 10, SHA));
            stored(producer, verified(10, VerifyMethod.FULL_READ, VerifyResult.OK, 10, SHA));
            assertThat(evidence().getList("assets[0].deadLetters")).isEmpty();

            // an object.verified about the asset that the ledger cannot decode: dead-lettered, then stored as such
            String garbageId = "garbage-" + run;
            producer.send(io.stowage.events.Topics.OBJECT_VERIFIED, asset,
                    "{\"result\":\"MISMATCH\",\"from\":\"a newer verifier\"".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.util.Map.of(io.stowage.events.CloudEventHeaders.ID, garbageId));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> given().get("/api/events/dlq:" + garbageId).statusCode() == 200);

            JsonPath dead = evidence();
            assertThat(dead.getString("assets[0].objects[0].fullReadResult")).isEqualTo("OK");
            assertThat(dead.getList("assets[0].deadLetters")).hasSize(1);
            assertThat(dead.getString("assets[0].deadLetters[0].eventId")).isEqualTo("dlq:" + garbageId);
            assertThat(dead.getString("assets[0].deadLetters[0].topic")).isEqualTo("object.verified.dlq");
            assertThat(given().queryParam("id", asset).get("/api/assets").then().statusCode(200).extract().jsonPath()
                    .getString("deadLetters[0].eventId")).isEqualTo("dlq:" + garbageId);

            stored(producer, verified(20, VerifyMethod.HEAD, VerifyResult.OK, 10, SHA));
            assertThat(evidence().getList("assets[0].deadLetters")).as("a HEAD does not outweigh it").hasSize(1);
            ObjectVerified reRead = verified(30, VerifyMethod.FULL_READ, VerifyResult.OK, 10, SHA);
            stored(producer, reRead);
            assertThat(evidence().getList("assets[0].deadLetters")).as("the only object re-read in full since").isEmpty();

            // another service dead-letters its copy of an event the ledger stored: nothing was lost, nothing is shown
            producer.send(io.stowage.events.Topics.dlq(io.stowage.events.Topics.OBJECT_VERIFIED), asset,
                    io.stowage.events.EventCodec.encode(reRead), io.stowage.events.CloudEventHeaders.of(reRead, "/stowage/test"));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> given().get("/api/events/dlq:" + reRead.meta().eventId()).statusCode() == 200);
            assertThat(evidence().getList("assets[0].deadLetters")).as("a dead-lettered copy of stored evidence").isEmpty();
        }
    }

    private JsonPath evidence() {
        JsonPath evidence = given().queryParam("path", root).get("/api/evidence").then().statusCode(200).extract().jsonPath();
        assertThat(evidence.getString("assets[0].assetId")).isEqualTo(asset);
        assertThat(evidence.getList("assets[0].objects")).hasSize(1);
        return evidence;
    }

    // one event at a time, each waited for, so the ledger's order is the order of this test
    private static void stored(TestProducer producer, StowageEvent event) throws Exception {
        producer.send(event);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
    }

    private ObjectUploaded uploaded(int second, long bytes, String sha) {
        return ObjectUploaded.of(meta(second), asset, "primary", "stowage-primary", key, ObjectKind.DATASET_MANIFEST,
                bytes, sha, "etag-" + second, "/s/manifest.json", false);
    }

    private ObjectVerified verified(int second, VerifyMethod method, VerifyResult result, long bytes, String sha) {
        return ObjectVerified.of(meta(second), asset, "primary", "stowage-primary", key, ObjectKind.DATASET_MANIFEST,
                method, result, bytes, sha, bytes, sha, null);
    }

    private EventMeta meta(int second) {
        return new EventMeta(UUID.randomUUID().toString(), 1, t0.plusSeconds(second), asset, null);
    }
}
