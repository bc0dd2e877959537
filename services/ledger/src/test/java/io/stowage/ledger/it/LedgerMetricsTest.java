package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.Topics;
import io.stowage.ledger.messaging.ConsumerLag;
import io.stowage.stack.StowageStackResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
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
 * The ledger's meters on {@code /q/metrics}, scraped without a token, against the real broker and PostgreSQL: three
 * events and one redelivery on {@code object.upload.failed} add exactly 3 to that topic's ingest counter, a record that
 * does not decode adds one dead letter sent, one stored and one dead-letter row, the append timer counts, the lag gauge
 * of the topic comes back to what {@code GET /api/lag} says (0 once all is committed), and nothing in the answer names
 * the asset, its path or a token.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class LedgerMetricsTest {
    private static final String INGESTED = "stowage_ledger_events_ingested_total";
    private static final String FAILED_TYPE = "type=\"" + Topics.cloudEventType(Topics.OBJECT_UPLOAD_FAILED) + "\"";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Inject
    ConsumerLag lag;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String assetId = "dataset/metrics-" + run + "/r1";
    private final String localPath = "/staging/metrics-" + run + "/00000.tar.zst";

    @Test
    void ingestDeadLettersTimerAndLagAreCountedOnTheScrape() throws Exception {
        String topicLabels = "topic=\"" + Topics.OBJECT_UPLOAD_FAILED + "\"," + FAILED_TYPE;
        double ingested = metric(INGESTED, topicLabels);
        double sent = metric("stowage_ledger_dead_letters_sent_total", "topic=\"" + Topics.SHARD_BUILT + "\"");
        double stored = metric("stowage_ledger_dead_letters_stored_total", "topic=\"" + Topics.dlq(Topics.SHARD_BUILT) + "\"");
        double appends = metric("stowage_ledger_append_seconds_count", "mode=\"batch\"");
        List<ObjectUploadFailed> events = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            events.add(ObjectUploadFailed.of(new EventMeta(UUID.randomUUID().toString(), 1, Instant.now(), assetId, null),
                    assetId, "replica", null, localPath, "replica store unreachable", false));
        }
        String garbageId = "garbage-" + run;
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (ObjectUploadFailed event : events) {
                producer.send(event);
            }
            producer.send(events.get(0));
            producer.send(Topics.SHARD_BUILT, assetId, "{not json".getBytes(StandardCharsets.UTF_8),
                    Map.of(CloudEventHeaders.ID, garbageId, CloudEventHeaders.SUBJECT, assetId));
        }
        awaitStored("dlq:" + garbageId);
        events.forEach(e -> awaitStored(e.meta().eventId()));
        long rows = given().get("/api/status").then().statusCode(200).extract().jsonPath().getLong("deadLetters");

        assertThat(metric(INGESTED, topicLabels) - ingested).as("ingested, the redelivery not counted").isEqualTo(3);
        assertThat(metric("stowage_ledger_dead_letters_sent_total", "topic=\"" + Topics.SHARD_BUILT + "\"") - sent)
                .as("dead letters sent").isEqualTo(1);
        assertThat(metric("stowage_ledger_dead_letters_stored_total", "topic=\"" + Topics.dlq(Topics.SHARD_BUILT) + "\"")
                - stored).as("dead letters stored").isEqualTo(1);
        assertThat(metric("stowage_ledger_append_seconds_count", "mode=\"batch\"") - appends).as("batch appends timed")
                .isGreaterThanOrEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(metric("stowage_ledger_dead_letter_rows", ""))
                .as("dead-letter rows gauge against /api/status").isEqualTo(rows));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            long fromApi = lag.read().partitions().stream().filter(p -> p.topic().equals(Topics.OBJECT_UPLOAD_FAILED))
                    .mapToLong(p -> p.lag()).sum();
            assertThat(fromApi).isZero();
            assertThat(metric("stowage_ledger_consumer_lag_records", "topic=\"" + Topics.OBJECT_UPLOAD_FAILED + "\""))
                    .as("lag gauge of the topic").isZero();
        });
        RestAssured.given().header("Authorization", "Bearer wrong-" + run).get("/api/events/refused-" + run)
                .then().statusCode(401);
        RestAssured.get("/api/events/anonymous-" + run).then().statusCode(401);
        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(text).as("no asset, path, event id or token in /q/metrics, refused requests included").doesNotContain(run)
                .doesNotContain("test-reader").doesNotContain("226b2cc4bd9718aa4f96");
        assertThat(text).contains("stowage_ledger_consumer_lag_records{topic=\"" + Topics.dlq(Topics.GATE_PASSED) + "\"");
    }

    // polls the status only: a failed RestAssured assertion would print every request
    private static void awaitStored(String eventId) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/api/events/" + eventId).statusCode() == 200);
    }

    /** @return the value of one Prometheus series on {@code /q/metrics} (labels in name order, without braces when none), 0 before any */
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
