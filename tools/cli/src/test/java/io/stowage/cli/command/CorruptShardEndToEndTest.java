package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import io.stowage.stack.StackEndpoints;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's case, through the six packaged services against the real Kafka, S3Proxy and PostgreSQL: a dataset of three
 * shards is uploaded while the verifier is down, one shard is damaged in the primary store (same size, same
 * {@code sha256} metadata, other bytes) before the verifier re-reads it, the verifier then records HEAD OK for all
 * and a full-read MISMATCH for that one; {@code stowage release} is denied (exit 3) naming that shard, and the
 * directory is intact. Two good re-reads do not outweigh the bad one.
 */
class CorruptShardEndToEndTest {
    private static Path work;
    private static Path dataset;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-corrupt-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        dataset = hot.resolve("speech-bad");
        Random random = new Random(7);
        for (int i = 0; i < 3; i++) {
            byte[] bytes = new byte[4000];
            random.nextBytes(bytes);
            Files.createDirectories(dataset.resolve("audio"));
            Files.write(dataset.resolve("audio/clip-" + i + ".wav"), bytes);
        }
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.home");
        System.clearProperty("stowage.token");
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aShardDamagedBeforeItsReReadDeniesTheReleaseNamingItAndNothingIsDeleted() throws Exception {
        String assetId = "dataset/speech-bad/r1";
        List<String> shards = new ArrayList<>();
        platform.restart("verifier", () -> {
            Result built = cli("dataset", "shard", dataset.toString(), "--name", "speech-bad", "--revision", "r1",
                    "--license", "CC-BY-4.0", "--shard-bytes", "5000", "--allow-small-shards", "--no-wait", "--json");
            assertThat(built.exit()).as(built.err()).isZero();
            Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() ->
                    asset(assetId).map(a -> a.path("objects").size() == 7).orElse(false)); // 3 shards, 3 members, manifest
            asset(assetId).orElseThrow().path("objects").forEach(o -> {
                if (o.path("kind").asText().equals("SHARD")) {
                    shards.add(o.path("key").asText());
                }
            });
            assertThat(shards).hasSize(3);
            damage(shards.get(1));
        });

        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() ->
                asset(assetId).map(a -> {
                    int read = 0;
                    for (JsonNode o : a.path("objects")) {
                        read += o.path("kind").asText().equals("SHARD") && !o.path("fullReadResult").isNull()
                                && o.hasNonNull("fullReadResult") ? 1 : 0;
                    }
                    return read == 3;
                }).orElse(false));
        JsonNode evidence = asset(assetId).orElseThrow();
        for (JsonNode o : evidence.path("objects")) {
            if (o.path("kind").asText().equals("SHARD")) {
                assertThat(o.path("headResult").asText()).as("same size and metadata: HEAD cannot tell").isEqualTo("OK");
                assertThat(o.path("fullReadResult").asText()).as(o.path("key").asText())
                        .isEqualTo(o.path("key").asText().equals(shards.get(1)) ? "MISMATCH" : "OK");
            }
        }

        Result dryRun = cli("release", dataset.toString(), "--dry-run", "--json");
        assertThat(dryRun.exit()).isEqualTo(CliException.DENIED);
        JsonNode plan = EventCodec.mapper().readTree(dryRun.out());
        assertThat(plan.path("failed").toString()).contains("bad-evidence", shards.get(1) + " in primary: FULL_READ MISMATCH")
                .doesNotContain(shards.get(0)).doesNotContain(shards.get(2));
        Result release = cli("release", dataset.toString());
        assertThat(release.exit()).isEqualTo(CliException.DENIED);
        assertThat(release.out() + release.err()).contains("bad-evidence");
        for (int i = 0; i < 3; i++) {
            assertThat(dataset.resolve("audio/clip-" + i + ".wav")).isRegularFile().hasSize(4000);
        }
    }

    // other bytes of the same size under the same key and metadata: only a full re-read sees it
    private static void damage(String key) {
        StackEndpoints stack = platform.session().stack();
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint()))
                .region(Region.of(stack.s3Region())).forcePathStyle(true).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(),
                        stack.s3SecretKey()))).build()) {
            HeadObjectResponse head = s3.headObject(b -> b.bucket(stack.primaryBucket()).key(key));
            byte[] other = new byte[Math.toIntExact(head.contentLength())];
            new Random(11).nextBytes(other);
            Map<String, String> metadata = head.metadata();
            assertThat(metadata).containsKey("sha256");
            s3.putObject(b -> b.bucket(stack.primaryBucket()).key(key).metadata(metadata), RequestBody.fromBytes(other));
        }
    }

    private static java.util.Optional<JsonNode> asset(String id) {
        return new HttpJson().get(platform.session().serviceUrl("ledger").resolve("/api/assets?id=" + id), JsonNode.class);
    }

    /** Runs the real command line in this JVM; @return exit code, standard output and standard error */
    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
