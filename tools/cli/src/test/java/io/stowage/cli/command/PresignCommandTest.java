package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import io.stowage.cli.platform.Session;
import io.stowage.events.EventCodec;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage presign} against the real S3Proxy of the embedded stack: a 24 h URL fetches the object's exact bytes
 * over plain HTTP with no credentials; 8 days and a key outside {@code models/} are refused with one line.
 */
@ExtendWith(StowageStackExtension.class)
class PresignCommandTest {
    private static final String KEY = "models/presign-test/r1/"
            + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/weights.bin";
    private static final String OUTSIDE = "datasets/presign-test/r1/shard-00000.tar.zst";
    private static final byte[] BYTES = new byte[300_000];

    @TempDir
    static Path home;

    @BeforeAll
    static void sessionAndObjects(StackEndpoints stack) throws Exception {
        new Random(8).nextBytes(BYTES);
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint()))
                .region(Region.of(stack.s3Region())).forcePathStyle(true)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey()))).build()) {
            s3.putObject(b -> b.bucket(stack.primaryBucket()).key(KEY), RequestBody.fromBytes(BYTES));
            s3.putObject(b -> b.bucket(stack.primaryBucket()).key(OUTSIDE), RequestBody.fromBytes(BYTES));
        }
        new Session(stack, Map.of(), home.resolve("staging").toString(), List.of(), ProcessHandle.current().pid())
                .writeTo(home.resolve("session.json"));
    }

    @Test
    void aDayLongUrlFetchesTheExactBytesWithoutCredentials() throws Exception {
        CliRun.Result run = run("presign", KEY, "--expires", "24h");

        assertThat(run.exit()).as(run.err()).isZero();
        URI url = URI.create(run.out().strip());
        assertThat(run.out().strip()).contains("X-Amz-Expires=86400").contains("X-Amz-Signature=")
                .doesNotContain(stackSecret());
        HttpResponse<byte[]> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(got.body()).isEqualTo(BYTES);
    }

    @Test
    void aTamperedUrlIsRefusedByTheStore() throws Exception {
        CliRun.Result run = run("presign", KEY, "--expires", "1h");
        String tampered = run.out().strip().replace("X-Amz-Expires=3600", "X-Amz-Expires=604800");

        HttpResponse<byte[]> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tampered)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(got.statusCode()).isEqualTo(403);
    }

    @Test
    void eightDaysIsAUsageErrorOfOneLine() {
        CliRun.Result run = run("presign", KEY, "--expires", "8d");

        assertThat(run.exit()).isEqualTo(CliException.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("stowage: --expires '8d' is 691200 s; a presigned URL lives at most 7 days (604800 s)"
                + System.lineSeparator());
    }

    @Test
    void aKeyOutsideTheAllowlistIsDeniedEvenThoughTheObjectExists() {
        CliRun.Result run = run("presign", OUTSIDE, "--expires", "1h");

        assertThat(run.exit()).isEqualTo(CliException.DENIED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("stowage: refused: key '" + OUTSIDE + "' is outside the prefixes allowed")
                .hasLineCount(1);
    }

    @Test
    void anAllowPrefixFlagExtendsTheAllowlist() throws Exception {
        CliRun.Result run = run("presign", OUTSIDE, "--expires", "1h", "--allow-prefix", "datasets/");

        assertThat(run.exit()).as(run.err()).isZero();
        HttpResponse<byte[]> got = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(run.out().strip())).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(got.body()).isEqualTo(BYTES);
    }

    @Test
    void aMissingObjectFails() {
        CliRun.Result run = run("presign", "models/presign-test/r1/none/weights.bin");

        assertThat(run.exit()).isEqualTo(CliException.FAILED);
        assertThat(run.err()).contains("no object at primary:").hasLineCount(1);
    }

    @Test
    void jsonNamesTheUrlAndItsLifetime(StackEndpoints stack) throws Exception {
        Instant before = Instant.now();
        CliRun.Result run = run("presign", KEY, "--expires", "7d", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = EventCodec.mapper().readTree(run.out());
        assertThat(json.path("key").asText()).isEqualTo(KEY);
        assertThat(json.path("store").asText()).isEqualTo("primary");
        assertThat(json.path("bucket").asText()).isEqualTo(stack.primaryBucket());
        assertThat(json.path("expiresInSeconds").asLong()).isEqualTo(604_800L);
        assertThat(Instant.parse(json.path("expiresAt").asText()))
                .isBetween(before.plus(Duration.ofDays(7)), Instant.now().plus(Duration.ofDays(7)));
        assertThat(json.path("url").asText()).contains("X-Amz-Expires=604800");
        HttpResponse<byte[]> got = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(json.path("url").asText())).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(got.body()).isEqualTo(BYTES);
    }

    private String stackSecret() {
        return Session.readFrom(home.resolve("session.json")).stack().s3SecretKey();
    }

    private static CliRun.Result run(String... args) {
        return CliRun.runWithHome(home, args);
    }
}
