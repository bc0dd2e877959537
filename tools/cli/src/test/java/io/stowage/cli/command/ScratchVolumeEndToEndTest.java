package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.Repo;
import io.stowage.cli.StowageCli;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.demo.DemoRunner;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import io.stowage.events.VolumeQuota;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scratch volume's life, through the six packaged services as separate processes against the real Kafka, S3Proxy and
 * PostgreSQL, driven by the real {@code stowage volume|pod|cost} commands: a scratch volume is created, filled with
 * a run's checkpoints, archived, reaches its time to live (swept at a chosen instant), passes the gate and is
 * destroyed; a volume holding one unarchived file is not destroyed and the alert names that file; the cost report
 * matches a hand computation.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScratchVolumeEndToEndTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final BigDecimal HOURS_PER_MONTH = new BigDecimal("730");
    private static Path work;
    private static Platform platform;
    private static ProviderClient provider;
    private static LedgerClient ledger;
    private static JsonNode scratch;
    private static JsonNode blocked;
    private static long archivedScratchBytes;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-provider-e2e-");
        platform = Platform.start(work, List.of(work, work.resolve("volumes")), List.of(), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        provider = new ProviderClient(platform.session().serviceUrl("provider-adapter"));
        ledger = new LedgerClient(platform.session().serviceUrl("ledger"));
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.home");
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    @Order(1)
    void aScratchVolumeFilledWithArchivedCheckpointsIsDestroyedAtItsTtlThroughTheGate() throws Exception {
        scratch = json(cli(0, "volume", "create", "--size", "500GB", "--ttl", "72h", "--purpose", "scratch",
                "--name", "scratch-run-a", "--run", "run-a", "--json"));
        Path dir = Path.of(scratch.path("path").asText());
        assertThat(dir).isDirectory().hasParent(work.resolve("volumes"));
        assertThat(VolumeQuota.of(dir).orElseThrow().quotaBytes()).isEqualTo(500_000_000_000L);
        Instant created = Instant.parse(scratch.path("createdAt").asText());
        assertThat(Instant.parse(scratch.path("expiresAt").asText())).isEqualTo(created.plus(Duration.ofHours(72)));

        archivedScratchBytes = fillAndArchive(dir, "run-a", true);

        String sweptAt = created.plus(Duration.ofHours(71)).toString();
        assertThat(json(cli(0, "volume", "sweep", "--at", sweptAt, "--json")).path("actions")).isEmpty();
        JsonNode sweep = json(cli(0, "volume", "sweep", "--at", created.plus(Duration.ofHours(72)).toString(), "--json"));
        assertThat(sweep.path("actions").toString()).contains(scratch.path("id").asText() + " ttl: releasing");

        JsonNode destroyed = awaitState(scratch.path("id").asText(), "DESTROYED");
        assertThat(dir).doesNotExist();
        assertThat(work.resolve("volumes").resolve(scratch.path("id").asText() + VolumeQuota.SUFFIX)).doesNotExist();
        String requestId = destroyed.path("releaseRequestId").asText();

        // the ledger holds the volume's life: created, released through the gate (with the saving), destroyed
        JsonNode row = awaitLedgerResource("volume/" + scratch.path("id").asText(), "DESTROYED");
        assertThat(row.path("endReason").asText()).isEqualTo("ttl");
        assertThat(row.path("releaseRequestId").asText()).isEqualTo(requestId);
        long lifetime = row.path("lifetimeSeconds").asLong();
        // cost = 500 GB x $0.07 per GB-month x (lifetime s / 3600 s per h) / 730 h per month, to 6 decimals
        BigDecimal expectedCost = new BigDecimal(500).multiply(new BigDecimal("0.07"))
                .multiply(BigDecimal.valueOf(lifetime)).divide(new BigDecimal(3600).multiply(HOURS_PER_MONTH),
                        MathContext.DECIMAL128).setScale(6, RoundingMode.HALF_EVEN);
        assertThat(new BigDecimal(row.path("costUsd").asText())).isEqualByComparingTo(expectedCost);
        assertThat(ledger.release(requestId).orElseThrow().released()).isTrue();
        JsonNode released = ledgerEvent("volume.released", requestId);
        assertThat(released.path("bytesFreed").asLong()).isEqualTo(archivedScratchBytes);
        // saving = bytes / 10^9 x (0.07 - 0.015 = 0.055) per month, to 6 decimals
        BigDecimal expectedSaving = BigDecimal.valueOf(archivedScratchBytes).multiply(new BigDecimal("0.055"))
                .divide(new BigDecimal("1000000000"), MathContext.DECIMAL128).setScale(6, RoundingMode.HALF_EVEN);
        assertThat(new BigDecimal(released.path("costSavedUsdPerMonth").asText())).isEqualByComparingTo(expectedSaving);
        assertThat(cli(0, "volume", "destroy", scratch.path("id").asText())).as("destroying twice is a no-op")
                .contains("destroyed");
    }

    @Test
    @Order(2)
    void aVolumeHoldingOneUnarchivedFileIsNotDestroyedAtItsTtlAndTheAlertNamesTheFile() throws Exception {
        blocked = json(cli(0, "volume", "create", "--size", "100GB", "--ttl", "1h", "--name", "scratch-run-b",
                "--run", "run-b", "--json"));
        Path dir = Path.of(blocked.path("path").asText());
        fillAndArchive(dir, "run-b", false);
        Path notes = Files.writeString(dir.resolve("notes.txt"), "scratch notes, never archived\n");
        List<Path> before = files(dir);

        cli(0, "volume", "sweep", "--at", Instant.parse(blocked.path("createdAt").asText())
                .plus(Duration.ofHours(1)).toString());
        JsonNode now = awaitState(blocked.path("id").asText(), "BLOCKED");

        assertThat(now.path("blockers").toString()).contains("unaccounted-file", "notes.txt");
        assertThat(files(dir)).containsExactlyElementsOf(before);
        assertThat(notes).hasContent("scratch notes, never archived\n");
        JsonNode row = awaitLedgerResource("volume/" + blocked.path("id").asText(), "ACTIVE");
        Awaitility.await().atMost(WAIT).until(() -> "release-blocked".equals(
                ledgerResource("volume/" + blocked.path("id").asText()).path("lastAlertCode").asText()));
        row = ledgerResource("volume/" + blocked.path("id").asText());
        assertThat(row.path("lastAlertBlockers").toString()).contains("unaccounted-file", "notes.txt");

        String out = cli(CliException.DENIED, "volume", "destroy", blocked.path("id").asText(), "--wait", "3m");
        assertThat(out).contains("blocked", "notes.txt");
        assertThat(files(dir)).containsExactlyElementsOf(before);
    }

    @Test
    @Order(3)
    void theCostReportMatchesAHandComputation() throws Exception {
        JsonNode pod = json(cli(0, "pod", "create", "--name", "trainer-run-b", "--gpu-type", "NVIDIA A40",
                "--gpu-count", "1", "--price-per-hour", "0.74", "--run", "run-b", "--json"));
        Instant podCreated = Instant.parse(pod.path("createdAt").asText());
        Instant at = podCreated.plus(Duration.ofMinutes(150));

        JsonNode report = json(cli(0, "cost", "--json", "--at", at.toString()));

        // the pod: $0.74 per h x 2.5 h = $1.85; it runs on: 0.74 x 730 h = $540.20 per month
        JsonNode podLine = line(report, pod.path("id").asText());
        assertThat(new BigDecimal(podLine.path("costUsd").asText())).isEqualByComparingTo("1.85");
        assertThat(new BigDecimal(podLine.path("monthlyUsd").asText())).isEqualByComparingTo("540.20");
        // the blocked 100 GB volume lives on: 100 x 0.07 x (at - created in s) / 3600 / 730; $7.00 per month
        long blockedSeconds = Duration.between(Instant.parse(blocked.path("createdAt").asText()), at).getSeconds();
        BigDecimal blockedCost = new BigDecimal("7.00").multiply(BigDecimal.valueOf(blockedSeconds))
                .divide(new BigDecimal(3600).multiply(HOURS_PER_MONTH), MathContext.DECIMAL128)
                .setScale(6, RoundingMode.HALF_EVEN);
        JsonNode blockedLine = line(report, blocked.path("id").asText());
        assertThat(new BigDecimal(blockedLine.path("costUsd").asText())).isEqualByComparingTo(blockedCost);
        assertThat(new BigDecimal(blockedLine.path("monthlyUsd").asText())).isEqualByComparingTo("7.00");
        // the destroyed scratch volume costs what its destruction recorded and nothing per month
        JsonNode scratchLine = line(report, scratch.path("id").asText());
        BigDecimal scratchCost = new BigDecimal(ledgerResource("volume/" + scratch.path("id").asText())
                .path("costUsd").asText());
        assertThat(new BigDecimal(scratchLine.path("costUsd").asText())).isEqualByComparingTo(scratchCost);
        assertThat(new BigDecimal(scratchLine.path("monthlyUsd").asText())).isZero();
        assertThat(new BigDecimal(report.path("totalCostUsd").asText()))
                .isEqualByComparingTo(new BigDecimal("1.85").add(blockedCost).add(scratchCost));
        // live per month: $540.20 (pod) + $7.00 (100 GB volume) = $547.20
        assertThat(new BigDecimal(report.path("liveMonthlyUsd").asText())).isEqualByComparingTo("547.20");
        // the archive: every primary object's bytes; far below the 10 free GB-months, so the store costs $0;
        // on a volume the same bytes would cost bytes / 10^9 x 0.07
        long archived = CostCommand.archivedBytes(platform.session().serviceUrl("ledger"));
        assertThat(archived).isGreaterThanOrEqualTo(archivedScratchBytes);
        JsonNode archive = report.path("archive");
        assertThat(archive.path("archivedBytes").asLong()).isEqualTo(archived);
        assertThat(new BigDecimal(archive.path("storeMonthlyUsd").asText())).isZero();
        assertThat(new BigDecimal(archive.path("onVolumeMonthlyUsd").asText())).isEqualByComparingTo(
                BigDecimal.valueOf(archived).multiply(new BigDecimal("0.07"))
                        .divide(new BigDecimal("1000000000"), MathContext.DECIMAL128).setScale(6, RoundingMode.HALF_EVEN));

        String table = cli(0, "cost", "--at", at.toString());
        assertThat(table).contains(pod.path("id").asText(), "$1.85", "$540.20", "$547.20");

        JsonNode terminated = json(cli(0, "pod", "terminate", pod.path("id").asText(), "--json"));
        assertThat(terminated.path("reason").asText()).isEqualTo("operator");
        JsonNode podRow = awaitLedgerResource("pod/" + pod.path("id").asText(), "TERMINATED");
        assertThat(new BigDecimal(podRow.path("costPerHourUsd").asText())).isEqualByComparingTo("0.74");
    }

    @Test
    @Order(4)
    void aRunAtItsMoneyCapIsAskedToCheckpointThenItsPodIsTerminated() throws Exception {
        JsonNode pod = json(cli(0, "pod", "create", "--name", "trainer-run-c", "--price-per-hour", "0.74",
                "--run", "run-c", "--json"));
        cli(0, "run", "cap", "run-c", "--cap-usd", "1.00");
        Instant created = Instant.parse(pod.path("createdAt").asText());

        // $0.74 per h: $1.48 after 2 h >= $1.00 -> the run is asked to checkpoint; stopped 10 min (the grace) later
        JsonNode asked = json(cli(0, "volume", "sweep", "--at", created.plus(Duration.ofHours(2)).toString(), "--json"));
        assertThat(asked.path("actions").toString()).contains("run run-c cap: checkpoint requested");
        assertThat(provider.pods().toString()).contains(pod.path("id").asText());
        JsonNode stopped = json(cli(0, "volume", "sweep", "--at",
                created.plus(Duration.ofMinutes(130)).toString(), "--json"));
        assertThat(stopped.path("actions").toString()).contains("run run-c cap: stopped",
                "pod " + pod.path("id").asText() + " run-cap: terminated");

        JsonNode row = awaitLedgerResource("pod/" + pod.path("id").asText(), "TERMINATED");
        assertThat(row.path("endReason").asText()).isEqualTo("run-cap");
        // 0.74 x 130 min / 60 = 1.603333...
        assertThat(new BigDecimal(row.path("costUsd").asText())).isEqualByComparingTo("1.603333");
        Awaitility.await().atMost(WAIT).until(() -> ledgerAlertCodes("run/run-c").containsAll(
                List.of("checkpoint-requested", "cap-reached")));
    }

    private static List<String> ledgerAlertCodes(String assetId) throws Exception {
        var stack = platform.session().stack();
        List<String> codes = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement(
                     "select payload from ledger_event where topic = 'provider.alert' and asset_id = ?")) {
            statement.setString(1, assetId);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    codes.add(EventCodec.mapper().readTree(rows.getString(1)).path("code").asText());
                }
            }
        }
        return codes;
    }

    /** Copies the example run's step directories into the volume, publishes them and waits until verified; @return their bytes */
    private static long fillAndArchive(Path volume, String run, boolean lastIsKey) throws Exception {
        Path source = Repo.root().resolve("examples/pytorch/checkpoints").resolve(DemoRunner.EXPERIMENT)
                .resolve(DemoRunner.RUN);
        Path runDir = volume.resolve("checkpoints").resolve(DemoRunner.EXPERIMENT).resolve(run);
        long bytes = 0;
        for (Path file : files(source)) {
            Path target = runDir.resolve(source.relativize(file).toString());
            VolumeQuota.check(target, Files.size(file)); // our writer checks the volume's quota before each write
            Files.createDirectories(target.getParent());
            Files.copy(file, target);
            bytes += Files.size(file);
        }
        List<Path> steps = DemoRunner.stepDirs(runDir);
        CheckpointPublisher publisher = new CheckpointPublisher(Path.of(platform.session().stagingDir()),
                Clock.systemUTC());
        try (EventPublisher events = new EventPublisher(platform.session().kafkaClient())) {
            List<CheckpointPublisher.Prepared> published = new ArrayList<>();
            for (Path step : steps) {
                boolean key = lastIsKey && step.equals(steps.get(steps.size() - 1));
                CheckpointPublisher.Prepared prepared = publisher.prepare(step, DemoRunner.EXPERIMENT, run,
                        DemoRunner.stepNumber(step), key, key ? List.of("best") : List.of());
                events.publish(prepared.event());
                published.add(prepared);
            }
            for (CheckpointPublisher.Prepared p : published) {
                ledger.awaitVerified(p.event().assetId(), p.event().fileCount() * (p.event().key() ? 2 : 1), WAIT);
            }
        }
        return bytes;
    }

    private static JsonNode awaitState(String volumeId, String state) {
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(provider.volume(volumeId).orElseThrow().path("state").asText()));
        return provider.volume(volumeId).orElseThrow();
    }

    private static JsonNode awaitLedgerResource(String key, String state) {
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(ledgerResource(key).path("state").asText()));
        return ledgerResource(key);
    }

    private static JsonNode ledgerResource(String key) {
        JsonNode rows = new HttpJson().get(platform.session().serviceUrl("ledger").resolve("/api/resources"),
                JsonNode.class).orElseThrow();
        for (JsonNode row : rows) {
            if (key.equals(row.path("key").asText())) {
                return row;
            }
        }
        return EventCodec.mapper().missingNode();
    }

    private static JsonNode ledgerEvent(String topic, String requestId) throws Exception {
        var stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select payload from ledger_event where topic = ? and asset_id = ?")) {
            statement.setString(1, topic);
            statement.setString(2, "release/" + requestId);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).as(topic + " of " + requestId + " in ledger_event").isTrue();
                return EventCodec.mapper().readTree(rows.getString(1));
            }
        }
    }

    private static JsonNode line(JsonNode report, String id) {
        for (JsonNode line : report.path("lines")) {
            if (id.equals(line.path("id").asText())) {
                return line;
            }
        }
        throw new AssertionError("no cost line for " + id + " in " + report);
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static JsonNode json(String out) throws IOException {
        return EventCodec.mapper().readTree(out);
    }

    /** Runs the real command line in this JVM; @return its standard output after checking the exit code */
    private static synchronized String cli(int expectedExit, String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit;
        try (PrintStream capture = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            exit = StowageCli.execute(args);
        } finally {
            System.setOut(original);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertThat(exit).as("exit code of stowage " + String.join(" ", args) + "; output: " + text)
                .isEqualTo(expectedExit);
        return text;
    }
}
