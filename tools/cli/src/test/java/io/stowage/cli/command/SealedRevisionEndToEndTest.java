package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sealed dataset revision is immutable, through the six packaged services as separate processes against the real
 * Kafka, S3Proxy and PostgreSQL, driven by the real {@code stowage dataset shard}: the same directory again is a
 * no-op that says "already sealed" and sends nothing; other content under the same name and revision is refused
 * naming the revision (exit 2), and the stored {@code manifest.json} keeps its bytes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SealedRevisionEndToEndTest {
    private static final String MANIFEST_KEY = "datasets/speech-e2e/r1/manifest.json";

    private static Path work;
    private static Path dataset;
    private static Platform platform;
    private static byte[] storedManifest;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-sealed-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        dataset = Files.createDirectories(hot.resolve("datasets/speech-e2e"));
        Files.writeString(dataset.resolve("0001.txt"), "the quick brown fox\n");
        Files.writeString(dataset.resolve("0002.txt"), "jumps over the lazy dog\n");
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
    @Order(1)
    void theFirstShardSealsTheRevision() throws Exception {
        Result first = shard("--json");
        assertThat(first.exit()).as(first.err()).isZero();
        JsonNode result = EventCodec.mapper().readTree(first.out());
        assertThat(result.path("alreadySealed").asBoolean()).isFalse();
        storedManifest = stored(MANIFEST_KEY);
        assertThat(io.stowage.events.Sha256.of(storedManifest)).isEqualTo(result.path("manifestSha256").asText());
        assertThat(eventCount("dataset.sealed")).isEqualTo(1);
    }

    @Test
    @Order(2)
    void theSameContentAgainIsANoOpThatSaysSo() throws Exception {
        long shardEvents = eventCount("shard.built");
        Result again = shard();
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.err()).contains("dataset/speech-e2e/r1 is already sealed with the same content (manifest sha256 "
                + io.stowage.events.Sha256.of(storedManifest) + "): already stored, nothing sent");
        assertThat(again.out()).contains("(already sealed: nothing sent)");
        assertThat(eventCount("dataset.sealed")).isEqualTo(1);
        assertThat(eventCount("shard.built")).isEqualTo(shardEvents);
        assertThat(stored(MANIFEST_KEY)).isEqualTo(storedManifest);
    }

    @Test
    @Order(3)
    void otherContentForTheSealedRevisionIsRefusedAndTheStoredManifestKeepsItsBytes() throws Exception {
        Files.writeString(dataset.resolve("0002.txt"), "jumps over the lazy cat\n");
        long shardEvents = eventCount("shard.built");

        Result refused = shard();

        assertThat(refused.exit()).isEqualTo(CliException.USAGE);
        assertThat(refused.err().lines().filter(l -> l.startsWith("stowage:")).toList()).singleElement()
                .asString().startsWith("stowage: dataset revision speech-e2e@r1 is already sealed with manifest sha256 "
                        + io.stowage.events.Sha256.of(storedManifest) + "; this content gives ");
        assertThat(eventCount("dataset.sealed")).isEqualTo(1);
        assertThat(eventCount("shard.built")).isEqualTo(shardEvents);
        assertThat(stored(MANIFEST_KEY)).isEqualTo(storedManifest);
    }

    private static Result shard(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("dataset", "shard", dataset.toString(), "--name", "speech-e2e",
                "--revision", "r1", "--license", "CC0-1.0", "--shard-bytes", "4096", "--allow-small-shards"));
        args.addAll(List.of(extra));
        return cli(args.toArray(String[]::new));
    }

    private static byte[] stored(String key) throws IOException {
        try (PrimaryStore store = new PrimaryStore(platform.session().stack()); InputStream in = store.open(key)) {
            return in.readAllBytes();
        }
    }

    private static long eventCount(String topic) throws Exception {
        var stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select count(*) from ledger_event where topic = ? and asset_id like ?")) {
            statement.setString(1, topic);
            statement.setString(2, "dataset/speech-e2e/%");
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
