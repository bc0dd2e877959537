package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ledger's query API for audits against the real broker and PostgreSQL: the history of a correlation id in chain
 * order, paged; the asset index, paged; the copies of one key in two stores; the lag endpoint (every partition
 * of every audit and dead-letter topic, caught up once the ledger committed); and the OpenAPI document naming them.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class QueryApiTest {
    private static final String SHA = "c".repeat(64);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "query-" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant t0 = Instant.now();
    private int tick;

    @Test
    void historyAssetsCopiesLagAndOpenApi() throws Exception {
        String requestId = run + "-req";
        String assetA = "dataset/" + run + "-a/r1";
        String assetB = "dataset/" + run + "-b/r1";
        String key = "datasets/" + run + "-a/r1/shards/" + SHA + ".tar.zst";
        List<StowageEvent> events = new ArrayList<>();
        ReleaseRequested request = ReleaseRequested.of(meta(requestId, null), requestId, "/data/" + run, false, "ops");
        events.add(request);
        events.add(GateDenied.of(meta(requestId, request.meta().eventId()), requestId, "/data/" + run, false,
                List.of(new FailedCondition(1, "no-head", "nothing uploaded"))));
        events.add(ShardBuilt.of(meta(assetA, null), run + "-a", "r1", 0, "/data/" + run + "-a", "/s/0.tar.zst", 10, SHA,
                "/s/0.members.jsonl", 5, SHA, 1, 10));
        events.add(ShardBuilt.of(meta(assetB, null), run + "-b", "r1", 0, "/data/" + run + "-b", "/s/1.tar.zst", 10, SHA,
                "/s/1.members.jsonl", 5, SHA, 1, 10));
        events.add(ObjectUploaded.of(meta(assetA, null), assetA, "primary", "stowage-primary", key, ObjectKind.SHARD, 10, SHA,
                "e1", "/s/0.tar.zst", false));
        events.add(ObjectUploaded.of(meta(assetA, null), assetA, "replica", "stowage-replica", key, ObjectKind.SHARD, 10, SHA,
                "e2", "/s/0.tar.zst", false));
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : events) {
                producer.send(event);
            }
        }
        for (StowageEvent event : events) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }

        // history: the request and its denial, chain order, one per page
        JsonPath page1 = given().queryParam("correlationId", requestId).queryParam("limit", 1).get("/api/history")
                .then().statusCode(200).extract().jsonPath();
        assertThat(page1.getList("events.eventId")).hasSize(1);
        long next = page1.getLong("next");
        JsonPath page2 = given().queryParam("correlationId", requestId).queryParam("limit", 1).queryParam("afterSeq", next)
                .get("/api/history").then().statusCode(200).extract().jsonPath();
        List<String> history = new ArrayList<>(page1.getList("events.eventId"));
        history.addAll(page2.getList("events.eventId"));
        assertThat(history).containsExactlyInAnyOrder(request.meta().eventId(), events.get(1).meta().eventId());
        assertThat(page2.getLong("events[0].seq")).isGreaterThan(page1.getLong("events[0].seq"));
        assertThat(page2.getString("next")).isNull();
        assertThat(List.of(page1.getString("events[0].topic"), page2.getString("events[0].topic")))
                .containsExactlyInAnyOrder(Topics.VOLUME_RELEASE_REQUESTED, Topics.GATE_DENIED);
        given().get("/api/history").then().statusCode(400);

        // asset index: page through from just before this run's ids
        JsonPath assets = given().queryParam("after", "dataset/" + run).queryParam("limit", 1).get("/api/assets/index")
                .then().statusCode(200).extract().jsonPath();
        assertThat(assets.getString("assets[0].assetId")).isEqualTo(assetA);
        assertThat(assets.getString("assets[0].localRoot")).isEqualTo("/data/" + run + "-a");
        assertThat(assets.getString("next")).isEqualTo(assetA);
        JsonPath assets2 = given().queryParam("after", assets.getString("next")).queryParam("limit", 1).get("/api/assets/index")
                .then().statusCode(200).extract().jsonPath();
        assertThat(assets2.getString("assets[0].assetId")).isEqualTo(assetB);
        given().queryParam("limit", 0).get("/api/assets/index").then().statusCode(400);

        // copies of one key
        JsonPath copies = given().queryParam("key", key).get("/api/objects/copies").then().statusCode(200).extract().jsonPath();
        assertThat(copies.getList("store")).containsExactly("primary", "replica");
        assertThat(copies.getList("bucket")).containsExactly("stowage-primary", "stowage-replica");
        assertThat(copies.getList("sha256")).containsExactly(SHA, SHA);

        // lag: every partition of every topic and dead-letter topic; this run's topic is committed up to its end
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonPath lag = given().get("/api/lag").then().statusCode(200).extract().jsonPath();
            List<Map<String, Object>> partitions = lag.getList("partitions");
            assertThat(partitions).hasSize(Topics.ALL.size() * 2 * 4);
            assertThat(lag.getString("group")).isEqualTo("stowage-ledger");
            for (Map<String, Object> p : partitions) {
                if (p.get("topic").equals(Topics.OBJECT_UPLOADED) || p.get("topic").equals(Topics.GATE_DENIED)) {
                    assertThat(((Number) p.get("consumed")).longValue()).as("%s", p).isEqualTo(((Number) p.get("end")).longValue());
                    assertThat(((Number) p.get("lag")).longValue()).isZero();
                }
            }
        });

        String openApi = given().get("/q/openapi").then().statusCode(200).extract().asString();
        for (String path : List.of("/api/history", "/api/assets/index", "/api/objects/copies", "/api/lag", "/api/audit/replay",
                "/api/audit/chain", "/api/evidence", "/api/objects")) {
            assertThat(openApi).contains(path + ":");
        }
    }

    private EventMeta meta(String correlation, String causation) {
        return new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(tick++), correlation, causation);
    }
}
