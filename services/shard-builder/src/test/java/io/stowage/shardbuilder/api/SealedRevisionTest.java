package io.stowage.shardbuilder.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.stowage.events.Topics;
import io.stowage.stack.StowageStackResource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.startsWith;

/**
 * A sealed dataset revision is immutable: what the ledger (a WireMock stand-in answering like {@code GET /api/assets})
 * says decides, after the build and before any event is sent, whether a request seals, is a no-op, or is refused;
 * the real Kafka broker shows what was sent.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(LedgerStub.class)
class SealedRevisionTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @TempDir
    Path tmp;

    @AfterEach
    void reset() {
        LedgerStub.unsealedByDefault();
    }

    @Test
    void theSameContentAgainIsANoOpThatSaysSoAndSendsNothing() throws IOException {
        Path dir = dataset("same");
        String revision = "r-" + UUID.randomUUID();
        ShardResponse first = given().contentType(ContentType.JSON).body(body(dir, revision))
                .when().post("/api/datasets/shard").then().statusCode(200).extract().as(ShardResponse.class);
        assertThat(first.alreadySealed()).isFalse();
        assertThat(eventsOf(first.assetId())).hasSize(first.shards() + 1);
        sealedAs(revision, first.manifestSha256());

        ShardResponse again = given().contentType(ContentType.JSON).body(body(dir, revision))
                .when().post("/api/datasets/shard").then().statusCode(200).extract().as(ShardResponse.class);

        assertThat(again.alreadySealed()).isTrue();
        assertThat(again.manifestSha256()).isEqualTo(first.manifestSha256());
        assertThat(eventsOf(first.assetId())).as("nothing sent the second time").hasSize(first.shards() + 1);
    }

    @Test
    void otherContentForASealedRevisionIsRefusedNamingItBeforeAnyEventAndTheLocalManifestStays() throws IOException {
        String revision = "r-" + UUID.randomUUID();
        Path staging = Files.createTempDirectory(tmp, "staging");
        Path manifest = Files.createDirectories(staging.resolve("datasets/speech/" + revision)).resolve("manifest.json");
        byte[] sealedBytes = "{\"sealed\":\"before\"}".getBytes();
        Files.write(manifest, sealedBytes);
        sealedAs(revision, "e".repeat(64));

        given().contentType(ContentType.JSON).body(body(dataset("other"), revision, staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(409)
                .body("error", startsWith("dataset revision speech@" + revision + " is already sealed with manifest sha256 "
                        + "e".repeat(64) + "; this content gives "));

        assertThat(eventsOf("dataset/speech/" + revision)).isEmpty();
        assertThat(Files.readAllBytes(manifest)).isEqualTo(sealedBytes);
    }

    @Test
    void aLedgerThatCannotAnswerRefusesTheRevisionInOneLine() throws IOException {
        String revision = "r-" + UUID.randomUUID();
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/assets")).withQueryParam("id", equalTo("dataset/speech/" + revision))
                .atPriority(1).willReturn(aResponse().withStatus(500)));

        given().contentType(ContentType.JSON).body(body(dataset("down"), revision))
                .when().post("/api/datasets/shard")
                .then().statusCode(503)
                .body("error", org.hamcrest.Matchers.allOf(
                        startsWith("cannot tell whether dataset revision speech@" + revision + " is already sealed: the ledger at "),
                        org.hamcrest.Matchers.endsWith("(HTTP 500); refused rather than risk replacing it"),
                        org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("\n"))));
        assertThat(eventsOf("dataset/speech/" + revision)).isEmpty();

        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/assets")).withQueryParam("id", equalTo("dataset/speech/" + revision))
                .atPriority(1).willReturn(aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));
        given().contentType(ContentType.JSON).body(body(dataset("gone"), revision))
                .when().post("/api/datasets/shard")
                .then().statusCode(503)
                .body("error", startsWith("cannot tell whether dataset revision speech@" + revision + " is already sealed"));
        assertThat(eventsOf("dataset/speech/" + revision)).isEmpty();
    }

    private static void sealedAs(String revision, String manifestSha256) {
        String json = "{\"assetId\":\"dataset/speech/" + revision + "\",\"kind\":\"dataset\",\"sealed\":true,"
                + "\"manifestSha256\":\"" + manifestSha256 + "\",\"revision\":\"" + revision + "\",\"objects\":[],"
                + "\"uploadFailures\":[]}";
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/assets")).withQueryParam("id", equalTo("dataset/speech/" + revision))
                .atPriority(1).willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(json)));
    }

    private Path dataset(String seed) throws IOException {
        Path dir = Files.createTempDirectory(tmp, "data");
        Files.writeString(dir.resolve("a.txt"), "clip of " + seed + "\n");
        Files.writeString(dir.resolve("b.txt"), "another clip\n");
        return dir;
    }

    private Map<String, Object> body(Path dir, String revision) throws IOException {
        return body(dir, revision, Files.createTempDirectory(tmp, "staging"));
    }

    private static Map<String, Object> body(Path dir, String revision, Path staging) {
        Map<String, Object> body = new HashMap<>();
        body.put("dir", dir.toString());
        body.put("dataset", "speech");
        body.put("revision", revision);
        body.put("license", "CC-BY-SA-3.0");
        body.put("targetShardBytes", 70_000);
        body.put("stagingDir", staging.toString());
        body.put("allowSmallShards", true);
        return body;
    }

    /** Every shard.built and dataset.sealed record of the asset, read from the beginning to the current end. */
    private List<ConsumerRecord<String, byte[]>> eventsOf(String assetId) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "sealed-revision-test-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.SHARD_BUILT, Topics.DATASET_SEALED)) {
                consumer.partitionsFor(topic, Duration.ofSeconds(30))
                        .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (assetId.equals(r.key())) {
                        records.add(r);
                    }
                });
            }
        }
        return records;
    }
}
