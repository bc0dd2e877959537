package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointPinned;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.EventMeta;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Provenance;
import io.stowage.events.RetentionDecided;
import io.stowage.events.StowageEvent;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The retention view of a run against the real broker and PostgreSQL: metrics and tags from checkpoint.published, the
 * newest pin or unpin, the model revisions promoted from a step, and an expiry that removes the step's objects from the
 * object projection.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class CheckpointStepsApiTest {
    private static final String SHA = "d".repeat(64);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "ret-" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant t0 = Instant.now();
    private int tick;

    @Test
    void metricsPinsAndExpiryAreKeptPerStep() throws Exception {
        CheckpointPublished s1 = published(100, Map.of("val_loss", 0.5));
        CheckpointPublished s2 = published(200, Map.of("val_loss", 0.3, "acc", 0.9));
        String key1 = ObjectKeys.checkpointFile("exp", run, 100, SHA, "model.pt");
        ObjectUploaded up1 = ObjectUploaded.of(meta(s1.assetId()), s1.assetId(), "primary", "stowage-primary", key1,
                ObjectKind.CHECKPOINT_FILE, 7, SHA, "e1", "/hot/" + run + "/100/model.pt", false);
        CheckpointPinned pin = CheckpointPinned.of(meta(s2.assetId()), "exp", run, 200, true, "ops");
        CheckpointPinned unpin = CheckpointPinned.of(meta(s2.assetId()), "exp", run, 200, false, "ops");
        List<StowageEvent> first = List.of(s1, s2, up1, pin, unpin);
        send(first);

        JsonPath steps = steps();
        assertThat(steps.getList("steps.step", Long.class)).containsExactly(100L, 200L);
        assertThat(steps.getDouble("steps[1].metrics.val_loss")).isEqualTo(0.3);
        assertThat(steps.getDouble("steps[1].metrics.acc")).isEqualTo(0.9);
        assertThat(steps.getList("steps[0].tags")).containsExactly("temporary");
        assertThat(steps.getBoolean("steps[1].pinned")).as("the unpin is newer than the pin").isFalse();
        assertThat(steps.getInt("steps[0].fileCount")).isEqualTo(1);
        assertThat(steps.getList("steps[0].asset.objects.key")).containsExactly(key1);

        // a model revision promoted from step 200: the step lists it, the revision names the step
        ModelPublished promoted = ModelPublished.of(meta("model/tiny-" + run + "/r1"), "tiny-" + run, "r1",
                "/stage/models/promoted", "/stage/m.json", 300, SHA, 1, 7, "MIT", s2.assetId(), s2.assetId());
        send(List.of(promoted));
        JsonPath linked = steps();
        assertThat(linked.getList("steps[1].promotedTo")).containsExactly("model/tiny-" + run + "/r1");
        assertThat(linked.getList("steps[0].promotedTo")).isEmpty();
        JsonPath from = given().queryParam("id", "model/tiny-" + run + "/r1").get("/api/models/promotion")
                .then().statusCode(200).extract().jsonPath();
        assertThat(from.getString("fromCheckpoint")).isEqualTo(s2.assetId());
        assertThat(from.getString("eventId")).isEqualTo(promoted.meta().eventId());
        given().queryParam("id", "model/tiny-" + run + "/none").get("/api/models/promotion").then().statusCode(404);

        CheckpointExpired expired = CheckpointExpired.of(meta(s1.assetId()), "exp", run, 100, SHA,
                List.of(new CheckpointExpired.ExpiredObject("primary", "stowage-primary", key1, 7)), "ops");
        send(List.of(expired));
        JsonPath after = steps();
        assertThat(after.getString("steps[0].expiredEventId")).isEqualTo(expired.meta().eventId());
        assertThat(after.getLong("steps[0].expiredBytes")).isEqualTo(7);
        assertThat(after.getList("steps[0].asset.objects")).as("the deleted object left the projection").isEmpty();
        assertThat(given().queryParam("key", key1).get("/api/objects/copies").then().statusCode(200)
                .extract().jsonPath().getList("$")).isEmpty();

        given().queryParam("experiment", "exp").queryParam("run", "bad run").get("/api/checkpoints/steps").then().statusCode(400);
        assertThat(given().queryParam("experiment", "exp").queryParam("run", run + "-none").get("/api/checkpoints/steps")
                .then().statusCode(200).extract().jsonPath().getList("steps")).isEmpty();
    }

    @Test
    void theRunsPolicyIsTheOneItsNewestPublishCarried() throws Exception {
        RetentionDecided.Policy keep3 = new RetentionDecided.Policy(3, null, null, null, null, null, null, null);
        RetentionDecided.Policy keep2 = new RetentionDecided.Policy(2, 1, "val_loss", "min", null, "PT6H", null, false);
        // step 500 published first, then step 400 (a resume from an earlier step): the newer publish is 400's
        send(List.of(published(100, Map.of(), keep3), published(500, Map.of(), keep3), published(400, Map.of(), keep2)));

        JsonPath policy = policies();
        assertThat(policy.getLong("step")).isEqualTo(400);
        assertThat(policy.getInt("policy.keepLast")).isEqualTo(2);
        assertThat(policy.getInt("policy.keepBest")).isEqualTo(1);
        assertThat(policy.getString("policy.metric")).isEqualTo("val_loss");
        assertThat(policy.getString("policy.keepInterval")).isEqualTo("PT6H");
        assertThat(policy.getBoolean("policy.tagsPin")).isFalse();
        assertThat(steps().getList("steps.step", Long.class)).containsExactly(100L, 400L, 500L);

        // the capsule lost its retention key: the next publish takes the run off the list
        send(List.of(published(600, Map.of(), null)));
        assertThat(policies()).isNull();
    }

    // this run's entry of GET /api/checkpoints/policies, null when absent
    private JsonPath policies() {
        List<Map<String, Object>> all = given().get("/api/checkpoints/policies").then().statusCode(200).extract()
                .jsonPath().getList("$");
        List<Map<String, Object>> mine = all.stream().filter(p -> run.equals(p.get("run"))).toList();
        assertThat(mine).hasSizeLessThanOrEqualTo(1);
        return mine.isEmpty() ? null : new JsonPath(io.stowage.events.EventCodec.mapper().valueToTree(mine.get(0)).toString());
    }

    private JsonPath steps() {
        return given().queryParam("experiment", "exp").queryParam("run", run).get("/api/checkpoints/steps")
                .then().statusCode(200).extract().jsonPath();
    }

    private void send(List<StowageEvent> events) throws Exception {
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : events) {
                producer.send(event);
            }
        }
        for (StowageEvent event : events) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }
    }

    private CheckpointPublished published(long step, Map<String, Double> metrics) {
        return published(step, metrics, null);
    }

    private CheckpointPublished published(long step, Map<String, Double> metrics, RetentionDecided.Policy retention) {
        return CheckpointPublished.of(meta("checkpoint/exp/" + run + "/" + ObjectKeys.paddedStep(step)), "exp", run, step,
                "/hot/" + run + "/" + step, "/stage/" + step + ".json", SHA, 1, 7, false,
                step == 100 ? List.of("temporary") : List.of(), new Provenance("abc", SHA, SHA), metrics, retention);
    }

    private EventMeta meta(String correlationId) {
        return new EventMeta(UUID.randomUUID().toString(), EventMeta.CURRENT_VERSION, t0.plusMillis(tick++),
                correlationId, null);
    }
}
