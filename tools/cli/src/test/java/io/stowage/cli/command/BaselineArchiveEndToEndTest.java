package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.ExternalTools;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hash-bound archives, through the six packaged services as separate processes against the real Kafka,
 * S3Proxy and PostgreSQL, driven by the real {@code stowage archive} and {@code stowage release} commands: bad input
 * exits 2, the directory is denied before it is archived, a dry run prints the plan and writes nothing, the archive
 * lands at its pinned key with its member manifest (bytes read back from the store), a second run says
 * {@code already stored}, and the gate then passes and the release frees the directory; last, with the verifier
 * stopped, an archive that is uploaded but not verified is denied.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BaselineArchiveEndToEndTest {
    /** The same tree and SHA-256 as the shard-builder's {@code BaselineArchiverTest} (mtime 0, zstd level 3). */
    static final String PINNED_ARCHIVE = "388f3940f4e8e61c569070ead97d6ae9d8d3d73dc5c7de55d8b6a8646dc124e1";
    static final String PREFIX = "archives/baselines/whisper-tiny/baseline-1/";

    private static Path work;
    private static Path results;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-archive-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        // the CLI's HTTP calls carry this session's operator token
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        results = hot.resolve("whisper-tiny-results");
        write(results.resolve("eval/results.json"), "{\"wer\": 0.125, \"cer\": 0.04}\n");
        write(results.resolve("eval/samples/0001.txt"), "the quick brown fox\n");
        write(results.resolve("config.yaml"), "model: whisper-tiny\nlr: 0.0003\n");
        write(results.resolve("DONE"), "");
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
    void badNamesAMissingAndAnEmptyDirectoryExitTwoWithOneLine() throws IOException {
        Result badModel = cli("archive", results.toString(), "--model", "a+b", "--milestone", "m1");
        assertThat(badModel.exit()).isEqualTo(CliException.USAGE);
        assertThat(badModel.err().strip()).startsWith("stowage: --model 'a+b' is not a valid name").doesNotContain("\n");
        Result badMilestone = cli("archive", results.toString(), "--model", "m", "--milestone", "naïve café");
        assertThat(badMilestone.exit()).isEqualTo(CliException.USAGE);
        assertThat(badMilestone.err()).contains("--milestone");
        Result missing = cli("archive", work.resolve("nope").toString(), "--model", "m", "--milestone", "x");
        assertThat(missing.exit()).isEqualTo(CliException.USAGE);
        assertThat(missing.err().strip()).isEqualTo("stowage: directory " + work.resolve("nope") + " does not exist");
        // the shard-builder answers 400 for an empty directory: exit 2 with its one line
        Path empty = Files.createDirectories(work.resolve("hot/empty"));
        Result nothing = cli("archive", empty.toString(), "--model", "m", "--milestone", "x");
        assertThat(nothing.exit()).isEqualTo(CliException.USAGE);
        assertThat(nothing.err().lines().filter(l -> l.startsWith("stowage:")).toList())
                .containsExactly("stowage: the directory holds no files: " + empty);
    }

    @Test
    @Order(2)
    void beforeArchivingTheGateDeniesTheDirectory() throws IOException {
        Result denied = cli("release", results.toString(), "--dry-run", "--json");
        assertThat(denied.exit()).isEqualTo(CliException.DENIED);
        assertThat(EventCodec.mapper().readTree(denied.out()).toString()).contains("no-assets");
        assertThat(results.resolve("DONE")).exists();
    }

    @Test
    @Order(3)
    void aDryRunPrintsMembersBytesAndTheTargetKeyAndWritesNothing() throws Exception {
        Result dry = cli("archive", results.toString(), "--model", "whisper-tiny", "--milestone", "baseline-1",
                "--dry-run", "--json");
        assertThat(dry.exit()).isZero();
        JsonNode plan = EventCodec.mapper().readTree(dry.out());
        assertThat(plan.path("status").asText()).isEqualTo("dry-run");
        assertThat(plan.path("key").asText()).isEqualTo(PREFIX + PINNED_ARCHIVE + ".tar.zst");
        assertThat(plan.path("membersKey").asText()).isEqualTo(PREFIX + PINNED_ARCHIVE + ".members.jsonl");
        assertThat(plan.path("memberCount").asInt()).isEqualTo(4);
        assertThat(plan.path("memberBytes").asLong()).isEqualTo(79);
        assertThat(plan.path("members").toString()).isEqualTo("[{\"path\":\"DONE\",\"bytes\":0,\"sha256\":\""
                + sha("") + "\"},{\"path\":\"config.yaml\",\"bytes\":31,\"sha256\":\"" + sha("model: whisper-tiny\nlr: 0.0003\n")
                + "\"},{\"path\":\"eval/results.json\",\"bytes\":28,\"sha256\":\"" + sha("{\"wer\": 0.125, \"cer\": 0.04}\n")
                + "\"},{\"path\":\"eval/samples/0001.txt\",\"bytes\":20,\"sha256\":\"" + sha("the quick brown fox\n") + "\"}]");
        assertThat(Path.of(platform.session().stagingDir()).resolve("archives")).doesNotExist();
        assertThat(eventCount("baseline.archived")).isZero();

        Result text = cli("archive", results.toString(), "--model", "whisper-tiny", "--milestone", "baseline-1", "--dry-run");
        assertThat(text.out()).contains("dry run: would archive " + results + " (4 files, 79 bytes) as " + PREFIX
                + PINNED_ARCHIVE + ".tar.zst", "  31  " + sha("model: whisper-tiny\nlr: 0.0003\n") + "  config.yaml",
                "nothing written");
    }

    @Test
    @Order(4)
    void theArchiveIsStoredAtItsKeyVerifiedAndASecondRunSaysAlreadyStored() throws Exception {
        Result stored = cli("archive", results.toString(), "--model", "whisper-tiny", "--milestone", "baseline-1", "--json");
        assertThat(stored.exit()).as(stored.err()).isZero();
        JsonNode first = EventCodec.mapper().readTree(stored.out());
        assertThat(first.path("status").asText()).isEqualTo("stored");
        assertThat(first.path("sha256").asText()).isEqualTo(PINNED_ARCHIVE);

        try (PrimaryStore store = new PrimaryStore(platform.session().stack())) {
            byte[] archive = read(store, PREFIX + PINNED_ARCHIVE + ".tar.zst");
            assertThat(Sha256.of(archive)).isEqualTo(PINNED_ARCHIVE);
            assertThat(archive.length).isEqualTo(first.path("bytes").asInt());
            assertGnuTarExtracts(archive);
            byte[] members = read(store, PREFIX + PINNED_ARCHIVE + ".members.jsonl");
            assertThat(new String(members, StandardCharsets.UTF_8)).isEqualTo(
                    "{\"path\":\"DONE\",\"bytes\":0,\"sha256\":\"" + sha("") + "\"}\n"
                    + "{\"path\":\"config.yaml\",\"bytes\":31,\"sha256\":\"" + sha("model: whisper-tiny\nlr: 0.0003\n") + "\"}\n"
                    + "{\"path\":\"eval/results.json\",\"bytes\":28,\"sha256\":\"" + sha("{\"wer\": 0.125, \"cer\": 0.04}\n") + "\"}\n"
                    + "{\"path\":\"eval/samples/0001.txt\",\"bytes\":20,\"sha256\":\"" + sha("the quick brown fox\n") + "\"}\n");
        }
        // the ledger projected the asset and both objects, the archive re-read in full
        JsonNode asset = new HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/assets?id=baseline/whisper-tiny/baseline-1"), JsonNode.class).orElseThrow();
        assertThat(asset.path("kind").asText()).isEqualTo("baseline");
        assertThat(asset.path("localRoot").asText()).isEqualTo(results.toString());
        assertThat(asset.path("objects").toString()).contains("\"kind\":\"SHARD\"", "\"fullReadResult\":\"OK\"");
        assertThat(eventCount("baseline.archived")).isEqualTo(1);

        Result again = cli("archive", results.toString(), "--model", "whisper-tiny", "--milestone", "baseline-1");
        assertThat(again.exit()).isZero();
        assertThat(again.out().strip()).isEqualTo("baseline/whisper-tiny/baseline-1: already stored and verified: "
                + PREFIX + PINNED_ARCHIVE + ".tar.zst (sha256 " + PINNED_ARCHIVE + ")");
        assertThat(eventCount("baseline.archived")).as("nothing published again").isEqualTo(1);
    }

    @Test
    @Order(5)
    void afterVerificationTheGatePassesAndTheReleaseFreesTheDirectory() throws IOException {
        Result dry = cli("release", results.toString(), "--dry-run", "--json");
        assertThat(dry.exit()).as(dry.out()).isZero();
        JsonNode plan = EventCodec.mapper().readTree(dry.out());
        assertThat(plan.toString()).contains("baseline/whisper-tiny/baseline-1");
        assertThat(results.resolve("DONE")).exists();

        Result released = cli("release", results.toString(), "--json");
        assertThat(released.exit()).as(released.out()).isZero();
        assertThat(results).doesNotExist();
    }

    /** GNU tar (with the zstd program) extracts the stored archive; sha256sum of each file matches the member manifest. */
    private static void assertGnuTarExtracts(byte[] archive) throws Exception {
        if (!ExternalTools.onPath("tar") || !ExternalTools.onPath("zstd") || !ExternalTools.onPath("sha256sum")) {
            System.err.println("GNU tar, zstd or sha256sum not installed: skipping the GNU tar check of the archive");
            return;
        }
        Path dir = Files.createTempDirectory(work, "gnu-tar-");
        Path file = dir.resolve("archive.tar.zst");
        Files.write(file, archive);
        assertThat(ExternalTools.run(dir, "tar", "--zstd", "-tf", file.toString()).lines().toList())
                .containsExactly("DONE", "config.yaml", "eval/results.json", "eval/samples/0001.txt");
        Path out = Files.createDirectories(dir.resolve("out"));
        ExternalTools.run(out, "tar", "--zstd", "-xf", file.toString());
        assertThat(ExternalTools.run(out, "sha256sum", "DONE", "config.yaml", "eval/results.json", "eval/samples/0001.txt"))
                .isEqualTo(sha("") + "  DONE\n" + sha("model: whisper-tiny\nlr: 0.0003\n") + "  config.yaml\n"
                        + sha("{\"wer\": 0.125, \"cer\": 0.04}\n") + "  eval/results.json\n"
                        + sha("the quick brown fox\n") + "  eval/samples/0001.txt\n");
    }

    /**
     * With the verifier stopped ({@link Platform#restart}, which holds supervision off the verifier meanwhile, so it is
     * not restarted behind the test's back), an archive is uploaded but never verified: the gate denies its directory on
     * conditions 1 (HEAD not OK) and 2 (no full read), and nothing is deleted.
     */
    @Test
    @Order(6)
    void anArchiveUploadedButNotVerifiedIsDenied() throws Exception {
        Path unverified = results.resolveSibling("whisper-tiny-final");
        List<Result> releases = new java.util.ArrayList<>();
        platform.restart("verifier", () -> {
            try {
                write(unverified.resolve("metrics.json"), "{\"wer\": 0.101}\n");
                Result built = cli("archive", unverified.toString(), "--model", "whisper-tiny", "--milestone", "final",
                        "--no-wait", "--json");
                assertThat(built.exit()).isZero();
                assertThat(EventCodec.mapper().readTree(built.out()).path("status").asText()).isEqualTo("built");
                Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300)).until(() ->
                        new HttpJson().get(platform.session().serviceUrl("ledger").resolve("/api/assets?id=baseline/whisper-tiny/final"),
                                JsonNode.class).map(a -> a.path("objects").size() == 2).orElse(false));
                releases.add(cli("release", unverified.toString(), "--dry-run", "--json"));
                releases.add(cli("release", unverified.toString()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        assertThat(releases).hasSize(2);
        assertThat(releases.get(0).exit()).isEqualTo(CliException.DENIED);
        assertThat(releases.get(0).out()).contains("head-not-ok", "no-full-read");
        assertThat(releases.get(1).exit()).isEqualTo(CliException.DENIED);
        assertThat(unverified.resolve("metrics.json")).hasContent("{\"wer\": 0.101}\n");
    }

    private static long eventCount(String topic) throws Exception {
        var stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select count(*) from ledger_event where topic = ?")) {
            statement.setString(1, topic);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static byte[] read(PrimaryStore store, String key) throws IOException {
        try (InputStream in = store.open(key)) {
            return in.readAllBytes();
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String sha(String text) {
        return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Runs the real command line in this JVM; @return exit code, standard output and standard error */
    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
