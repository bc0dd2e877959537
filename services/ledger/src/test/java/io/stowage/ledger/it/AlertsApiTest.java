package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ProviderAlert;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
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
 * {@code GET /api/alerts} against the real broker and PostgreSQL: a provider alert, a failed release, a MISMATCH
 * re-read and a dead letter are answered newest first with their own words; an OK verification is not an alert.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class AlertsApiTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "alerts-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void theNewestAlertsComeFirstInTheirOwnWordsAndAnOkVerificationIsNone() throws Exception {
        String asset = "dataset/" + run + "/r1";
        String sha = "a".repeat(64);
        ProviderAlert blocked = ProviderAlert.of(meta("volume/vol-" + run), "volume", "vol-" + run, "release-blocked",
                "ttl reached; gate denied", List.of("5 unaccounted-file: notes.txt"), null);
        VolumeReleaseFailed failed = VolumeReleaseFailed.of(meta(run), run, "/hot/" + run, "changed since the gate:\nnotes.txt");
        ObjectVerified ok = ObjectVerified.of(meta(asset), asset, "primary", "b", "datasets/" + run + "/ok.tar.zst",
                ObjectKind.SHARD, VerifyMethod.FULL_READ, VerifyResult.OK, 10, sha, 10, sha, null);
        ObjectVerified mismatch = ObjectVerified.of(meta(asset), asset, "primary", "b", "datasets/" + run + "/bad.tar.zst",
                ObjectKind.SHARD, VerifyMethod.FULL_READ, VerifyResult.MISMATCH, 10, sha, 10, "b".repeat(64), null);
        String garbageId = "garbage-" + run;
        List<StowageEvent> events = List.of(blocked, failed, ok, mismatch);
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : events) {
                producer.send(event);
                awaitStored(event.meta().eventId()); // one at a time: the ledger's order is the order sent
            }
            producer.send(Topics.SHARD_BUILT, asset, "{not json".getBytes(StandardCharsets.UTF_8),
                    Map.of(CloudEventHeaders.ID, garbageId, CloudEventHeaders.SUBJECT, asset));
        }
        awaitStored("dlq:" + garbageId);

        List<Map<String, Object>> alerts = givenReader().queryParam("limit", 1000).get("/api/alerts").then().statusCode(200)
                .extract().jsonPath().getList("");
        List<Map<String, Object>> mine = alerts.stream().filter(a -> a.get("eventId").toString().contains(run)
                || List.of(blocked, failed, ok, mismatch).stream().anyMatch(e -> e.meta().eventId().equals(a.get("eventId"))))
                .toList();

        assertThat(mine).extracting(a -> a.get("kind"))
                .containsExactly("dead-letter", "verify-MISMATCH", "release-failed", "release-blocked");
        assertThat(mine.get(1)).containsEntry("subject", "primary: datasets/" + run + "/bad.tar.zst")
                .containsEntry("detail", "FULL_READ MISMATCH").containsEntry("eventId", mismatch.meta().eventId());
        assertThat(mine.get(2)).containsEntry("subject", "/hot/" + run)
                .containsEntry("detail", "changed since the gate: notes.txt");
        assertThat(mine.get(3)).containsEntry("subject", "volume/vol-" + run).containsEntry("detail", "ttl reached; gate denied")
                .containsEntry("topic", Topics.PROVIDER_ALERT);
        assertThat(mine.get(0).get("topic").toString()).isEqualTo(Topics.dlq(Topics.SHARD_BUILT));
        assertThat(alerts).extracting(a -> a.get("eventId")).doesNotContain(ok.meta().eventId());

        assertThat(givenReader().queryParam("limit", 2).get("/api/alerts").then().statusCode(200).extract().jsonPath()
                .getList("")).hasSize(2);
        givenReader().queryParam("limit", 0).get("/api/alerts").then().statusCode(400);
        RestAssured.given().get("/api/alerts").then().statusCode(401);
    }

    private static EventMeta meta(String correlation) {
        return new EventMeta(UUID.randomUUID().toString(), 1, Instant.now(), correlation, null);
    }

    private static void awaitStored(String eventId) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/api/events/" + eventId).statusCode() == 200);
    }
}
