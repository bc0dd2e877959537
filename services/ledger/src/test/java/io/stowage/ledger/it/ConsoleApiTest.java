package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static io.stowage.auth.TestTokens.givenReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The two listings the operator console reads, against the real broker and PostgreSQL: {@code GET /api/releases}
 * (each request with who asked when and its outcome, newest first) and {@code GET /api/payloads} (an asset's
 * recorded events on one topic); both need a reader token.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ConsoleApiTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "console-" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant t0 = Instant.now();
    private int tick;

    @Test
    void releasesNewestFirstWithAskerTimeAndFailuresAndPayloadsOfOneTopic() throws Exception {
        String older = run + "-older";
        String newer = run + "-newer";
        String dataset = "dataset/" + run + "/r1";
        ReleaseRequested first = ReleaseRequested.of(meta(older, null), older, "/hot/" + run + "/a", true, "alice");
        ReleaseRequested second = ReleaseRequested.of(meta(newer, null), newer, "/hot/" + run + "/b", false, "bob");
        GateDenied denied = GateDenied.of(meta(newer, second.meta().eventId()), newer, "/hot/" + run + "/b", false,
                List.of(new FailedCondition(5, "unaccounted-file", "file in no manifest of an asset: train.log")));
        ShardBuilt shard = ShardBuilt.of(meta(dataset, null), run, "r1", 0, "/hot/" + run, "/s/0.tar.zst", 10, "d".repeat(64),
                "/s/0.members.jsonl", 5, "e".repeat(64), 7, 10);
        List<StowageEvent> events = List.of(first, second, denied, shard);
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : events) {
                producer.send(event);
            }
        }
        for (StowageEvent event : events) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }

        JsonPath releases = givenReader().queryParam("limit", 1000).get("/api/releases").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> mine = releases.<Map<String, Object>>getList("").stream()
                .filter(r -> ((Map<?, ?>) r.get("outcome")).get("requestId").toString().startsWith(run)).toList();
        assertThat(mine).extracting(r -> (Object) ((Map<?, ?>) r.get("outcome")).get("requestId")).containsExactly(newer, older);
        assertThat(mine).extracting(r -> r.get("requestedBy")).containsExactly("bob", "alice");
        assertThat(Instant.parse(mine.get(0).get("requestedAt").toString()))
                .isEqualTo(second.meta().time().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        Map<?, ?> outcome = (Map<?, ?>) mine.get(0).get("outcome");
        assertThat(outcome.get("gate")).isEqualTo("denied");
        assertThat(outcome.get("path")).isEqualTo("/hot/" + run + "/b");
        assertThat(((List<?>) outcome.get("failed"))).singleElement()
                .satisfies(f -> assertThat(((Map<?, ?>) f).get("detail").toString()).contains("train.log"));
        assertThat(((Map<?, ?>) mine.get(1).get("outcome")).get("gate")).isEqualTo("pending");

        JsonPath payloads = givenReader().queryParam("assetId", dataset).queryParam("topic", Topics.SHARD_BUILT)
                .get("/api/payloads").then().statusCode(200).extract().jsonPath();
        assertThat(payloads.getList("eventId")).containsExactly(shard.meta().eventId());
        assertThat(payloads.getInt("[0].payload.memberCount")).isEqualTo(7);
        assertThat(payloads.getString("[0].payload.sha256")).isEqualTo("d".repeat(64));
        assertThat(givenReader().queryParam("assetId", dataset).queryParam("topic", Topics.OBJECT_VERIFIED).get("/api/payloads")
                .then().statusCode(200).extract().jsonPath().getList("")).isEmpty();

        givenReader().queryParam("assetId", dataset).get("/api/payloads").then().statusCode(400);
        givenReader().queryParam("limit", 0).get("/api/releases").then().statusCode(400);
        RestAssured.given().get("/api/releases").then().statusCode(401);
        RestAssured.given().queryParam("assetId", dataset).queryParam("topic", Topics.SHARD_BUILT).get("/api/payloads")
                .then().statusCode(401);
    }

    private EventMeta meta(String correlation, String causation) {
        return new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(tick++), correlation, causation);
    }
}
