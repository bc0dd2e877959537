package io.stowage.shardbuilder.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.stowage.stack.StowageStackResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shard-builder's meters on {@code /q/metrics} (scraped without a token) against the real broker, the ledger
 * stubbed: a build of three shards adds 3 shards and exactly the bytes of the three {@code .tar.zst} files on disk,
 * and one {@code built}; the same content once the ledger holds it sealed adds one {@code already_sealed} and no
 * shard; other content adds one {@code conflict}; a relative directory one {@code invalid}. The answer names no
 * dataset revision or staging path.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(LedgerStub.class)
class ShardMetricsTest {
    @TempDir
    Path tmp;

    @AfterEach
    void reset() {
        LedgerStub.unsealedByDefault();
    }

    @Test
    void buildsShardsBytesAndRefusalsAreCountedOnTheScrape() throws IOException {
        double shards = metric("stowage_shard_builder_shards_total", "");
        double bytes = metric("stowage_shard_builder_shard_bytes_total", "");
        double built = builds("built");
        double already = builds("already_sealed");
        double conflict = builds("conflict");
        double invalid = builds("invalid");
        double timed = metric("stowage_shard_builder_build_seconds_count", "outcome=\"built\"");
        Path dir = dataset();
        Path staging = Files.createTempDirectory(tmp, "staging");
        String revision = "r-" + UUID.randomUUID();

        ShardResponse first = given().contentType(ContentType.JSON).body(body(dir, revision, staging))
                .when().post("/api/datasets/shard").then().statusCode(200).extract().as(ShardResponse.class);

        assertThat(first.shards()).isEqualTo(3);
        long onDisk = 0;
        for (String sha : first.shardShas()) {
            onDisk += Files.size(staging.resolve("datasets/speech/" + revision + "/shards/" + sha + ".tar.zst"));
        }
        assertThat(metric("stowage_shard_builder_shards_total", "") - shards).as("shards").isEqualTo(3);
        assertThat(metric("stowage_shard_builder_shard_bytes_total", "") - bytes).as("shard bytes").isEqualTo(onDisk);
        assertThat(builds("built") - built).isEqualTo(1);
        assertThat(metric("stowage_shard_builder_build_seconds_count", "outcome=\"built\"") - timed).isEqualTo(1);

        sealedAs(revision, first.manifestSha256());
        given().contentType(ContentType.JSON).body(body(dir, revision, Files.createTempDirectory(tmp, "staging")))
                .when().post("/api/datasets/shard").then().statusCode(200);
        sealedAs(revision, "e".repeat(64));
        given().contentType(ContentType.JSON).body(body(dir, revision, Files.createTempDirectory(tmp, "staging")))
                .when().post("/api/datasets/shard").then().statusCode(409);
        Map<String, Object> relative = body(dir, revision, staging);
        relative.put("dir", "relative/dir");
        given().contentType(ContentType.JSON).body(relative).when().post("/api/datasets/shard").then().statusCode(400);

        assertThat(builds("already_sealed") - already).isEqualTo(1);
        assertThat(builds("conflict") - conflict).isEqualTo(1);
        assertThat(builds("invalid") - invalid).isEqualTo(1);
        assertThat(metric("stowage_shard_builder_shards_total", "") - shards).as("nothing more published").isEqualTo(3);
        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(text).doesNotContain(revision).doesNotContain(staging.toString()).doesNotContain("test-operator");
    }

    private static double builds(String outcome) {
        return metric("stowage_shard_builder_builds_total", "outcome=\"" + outcome + "\"");
    }

    private static void sealedAs(String revision, String manifestSha256) {
        String json = "{\"assetId\":\"dataset/speech/" + revision + "\",\"kind\":\"dataset\",\"sealed\":true,"
                + "\"manifestSha256\":\"" + manifestSha256 + "\",\"revision\":\"" + revision + "\",\"objects\":[],"
                + "\"uploadFailures\":[]}";
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/assets")).withQueryParam("id", equalTo("dataset/speech/" + revision))
                .atPriority(1).willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(json)));
    }

    private Path dataset() throws IOException {
        Path dir = Files.createTempDirectory(tmp, "data");
        Random random = new Random(7);
        for (int i = 0; i < 5; i++) {
            byte[] content = new byte[30_000 + i * 1_000];
            random.nextBytes(content);
            Files.write(dir.resolve("clip-" + i + ".wav"), content);
        }
        Files.writeString(dir.resolve("README.txt"), "five clips\n");
        return dir;
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
