package io.stowage.provideradapter.messaging;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The provider-adapter's meters on {@code /q/metrics} (scraped without a token) against the real broker and a real
 * temp directory: one approved release of two files (17 bytes) adds one {@code released}, 17 bytes freed and 2 files
 * deleted, its redelivery (answered again from the journal) adds nothing, a decision without signature adds one
 * {@code failed} and no bytes; a volume created through the API adds one {@code ACTIVE} volume, and the cost gauge
 * agrees with {@code GET /api/cost}. The answer names no path or request id.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ProviderMetricsTest {
    private static final String RELEASES = "stowage_provider_adapter_releases_total";
    private static final String FREED = "stowage_provider_adapter_freed_bytes_total";
    private static final String FILES = "stowage_provider_adapter_deleted_files_total";

    @TempDir
    Path tmp;

    @Test
    void aReleaseItsRedeliveryAndAForgedDecisionAreCountedOnTheScrape() throws Exception {
        KafkaProbe kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        Path dir = tmp.resolve("vol/ckpt/exp/run1/step-300");
        Files.createDirectories(dir.resolve("shards"));
        Files.writeString(dir.resolve("model.bin"), "weights");
        Files.writeString(dir.resolve("shards/part-0"), "0123456789");
        double released = metric(RELEASES, "outcome=\"released\"");
        double failed = metric(RELEASES, "outcome=\"failed\"");
        double freed = metric(FREED, "");
        double files = metric(FILES, "");
        double timed = metric("stowage_provider_adapter_release_seconds_count", "outcome=\"released\"");
        GatePassed gate = gatePassed(dir);
        byte[] value = EventCodec.encode(gate);

        kafka.send(gate.topic(), gate.assetId(), value, ProviderAdapterFlowTest.signedHeaders(gate, value));
        kafka.await(Topics.VOLUME_RELEASED, gate.assetId());
        kafka.send(gate.topic(), gate.assetId(), value, ProviderAdapterFlowTest.signedHeaders(gate, value));
        kafka.await(Topics.VOLUME_RELEASED, r -> gate.assetId().equals(r.key()), 2);

        assertThat(dir).doesNotExist();
        assertThat(metric(RELEASES, "outcome=\"released\"") - released).as("released once").isEqualTo(1);
        assertThat(metric(FREED, "") - freed).as("bytes freed").isEqualTo(17);
        assertThat(metric(FILES, "") - files).as("files deleted").isEqualTo(2);
        assertThat(metric("stowage_provider_adapter_release_seconds_count", "outcome=\"released\"") - timed).isEqualTo(1);

        Path kept = Files.createDirectories(tmp.resolve("vol/ckpt/exp/run1/step-400"));
        Files.writeString(kept.resolve("model.bin"), "kept weights");
        GatePassed forged = gatePassed(kept);
        kafka.send(forged.topic(), forged.assetId(), EventCodec.encode(forged),
                CloudEventHeaders.of(forged, "/stowage/gatekeeper"));
        kafka.await(Topics.VOLUME_RELEASE_FAILED, forged.assetId());

        assertThat(kept.resolve("model.bin")).hasContent("kept weights");
        assertThat(metric(RELEASES, "outcome=\"failed\"") - failed).as("forged decision refused").isEqualTo(1);
        assertThat(metric(FREED, "") - freed).as("nothing more freed").isEqualTo(17);
        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(text).doesNotContain(dir.toString()).doesNotContain(gate.requestId()).doesNotContain("test-operator");
    }

    @Test
    void aCreatedVolumeIsCountedActiveAndTheCostGaugeAgreesWithTheCostApi() {
        // a gauge still bound to an earlier start of the application (Quarkus tests restart it in one JVM) reads NaN
        // once that instance is collected: collect now, so such a gauge fails here rather than by chance
        System.gc();
        await().atMost(Duration.ofSeconds(20)).until(() -> !Double.isNaN(metric("stowage_provider_adapter_volumes", "state=\"ACTIVE\"")));
        double active = metric("stowage_provider_adapter_volumes", "state=\"ACTIVE\"");
        String name = "metrics-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body(Map.of("name", name, "purpose", "scratch", "sizeGb", 3, "ttlSeconds", 3600))
                .post("/api/volumes").then().statusCode(201);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(metric("stowage_provider_adapter_volumes", "state=\"ACTIVE\"") - active).isEqualTo(1));
        double total = given().get("/api/cost").then().statusCode(200).extract().jsonPath().getDouble("totalCostUsd");
        assertThat(metric("stowage_provider_adapter_cost_usd", "")).isCloseTo(total, within(0.01));
        assertThat(metric("stowage_provider_adapter_pods", "state=\"running\"")).isNotNaN();
        assertThat(RestAssured.get("/q/metrics").asString()).doesNotContain(name);
    }

    @Test
    void aRequestRefusedBeforeRoutingIsTimedUnderItsRouteNotItsIds() {
        String id = "refused-" + UUID.randomUUID().toString().substring(0, 8);
        RestAssured.get("/api/volumes/" + id).then().statusCode(401);
        RestAssured.given().header("Authorization", "Bearer wrong").post("/api/volumes/" + id + "/release").then().statusCode(401);
        RestAssured.post("/api/pods/" + id + "/terminate").then().statusCode(401);
        RestAssured.given().contentType(ContentType.JSON).body("{}").put("/api/runs/" + id + "/cap").then().statusCode(401);

        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(text).doesNotContain(id);
        assertThat(text).contains("uri=\"/api/volumes/{id}\"", "uri=\"/api/volumes/{id}/release\"",
                "uri=\"/api/pods/{id}/terminate\"", "uri=\"/api/runs/{runId}/cap\"");
    }

    /** @return a decision for {@code dir} with the inventory it has now and five passed conditions */
    private static GatePassed gatePassed(Path dir) throws java.io.IOException {
        String requestId = UUID.randomUUID().toString();
        List<ConditionResult> conditions = IntStream.rangeClosed(1, 5).mapToObj(c ->
                new ConditionResult(c, ConditionResult.NAMES.get(c - 1), true, "held", List.of("ev-" + c))).toList();
        return GatePassed.of(EventMeta.first(requestId, Clock.systemUTC()), requestId, dir.toString(), false,
                List.of("checkpoint/exp/run1/000000000300"), DirectoryFingerprint.of(dir).sha256(), conditions,
                DirectoryInventory.take(dir));
    }

    /** @return the value of one Prometheus series on {@code /q/metrics} (labels in name order, none: ""), 0 before any */
    static double metric(String name, String labels) {
        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        String prefix = labels.isEmpty() ? name + " " : name + "{" + labels;
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
