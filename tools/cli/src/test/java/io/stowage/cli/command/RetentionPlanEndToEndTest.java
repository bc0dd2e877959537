package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retention plans from the ledger, through the six packaged services as separate processes against the real Kafka,
 * S3Proxy and PostgreSQL, driven by the real {@code stowage checkpoint publish --metric}, {@code checkpoint pin|unpin}
 * and {@code retention plan}: keep-best 1 + keep-last 1 keeps both the best and the newest; a pin keeps a step until
 * it is unpinned; a reader token cannot pin (exit 4); a pin or unpin of a step or run the ledger does not know is refused
 * and records nothing; {@code cost --run} of an unknown run is exit 1; a token the services refuse on {@code status} and
 * {@code run list} is exit 4 with one line; a run resumed from step 300 (step 400 published again, then 500) with
 * keep-last 2 keeps exactly its two newest steps. Nothing is deleted by a plan.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RetentionPlanEndToEndTest {
    private static Path work;
    private static Path runDir;
    private static Platform platform;
    private static String operatorToken;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-retention-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        operatorToken = Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip();
        System.setProperty("stowage.token", operatorToken);
        runDir = Files.createDirectories(hot.resolve("ckpt/run1"));
        Files.writeString(runDir.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\",\"configSha256\":\"" + "b".repeat(64)
                + "\",\"dataManifestSha256\":\"" + "c".repeat(64) + "\",\"retention\":{\"keepLast\":1,\"keepBest\":1,"
                + "\"metric\":\"val_loss\",\"mode\":\"min\"}}");
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
    void keepBestOneAndKeepLastOneKeepTheBestAndTheNewestAndFreeTheRest() throws Exception {
        double[] losses = {0.9, 0.2, 0.5, 0.7};
        for (int i = 0; i < losses.length; i++) {
            publish(runDir, "run1", (i + 1) * 100, "weights-" + i, "val_loss=" + losses[i]);
        }

        JsonNode plan = plan("run1");

        assertThat(decisions(plan)).containsExactly("100 expire", "200 keep", "300 expire", "400 keep");
        assertThat(keptBy(plan, 200)).containsExactly("keep-best");
        assertThat(keptBy(plan, 400)).containsExactly("latest", "newest-verified", "keep-last");
        assertThat(plan.path("latestStep").asLong()).isEqualTo(400);
        assertThat(plan.path("steps").get(1).path("metrics").path("val_loss").asDouble()).isEqualTo(0.2);
        // each step is one file (weights.bin; the metric travels in the event): the freed primary bytes are the two expired steps'
        long expiredBytes = 0;
        List<String> expiredKeys = new ArrayList<>();
        for (JsonNode step : plan.path("steps")) {
            if ("expire".equals(step.path("decision").asText())) {
                expiredBytes += step.path("stores").path("primary").path("bytes").asLong();
                step.path("stores").path("primary").path("keys").forEach(k -> expiredKeys.add(k.asText()));
            }
        }
        assertThat(expiredBytes).isEqualTo(Files.size(runDir.resolve("step-100/weights.bin"))
                + Files.size(runDir.resolve("step-300/weights.bin")));
        assertThat(plan.path("freed").path("primary").path("bytes").asLong()).isEqualTo(expiredBytes);
        assertThat(expiredKeys).allMatch(k -> k.startsWith("checkpoints/e2e/run1/000000000100/")
                || k.startsWith("checkpoints/e2e/run1/000000000300/"));
        assertThat(plan.path("monthlyUsdFreed").isNumber()).as("priced by the provider-adapter's table").isTrue();

        Result text = cli("retention", "plan", "--experiment", "e2e", "--run", "run1", "--capsule", runDir.toString());
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("2 of 4 steps expire").contains("latest, newest-verified, keep-last");

        // the command line overrides the capsule: keep-last 3 keeps 200..400
        assertThat(decisions(plan("run1", "--keep-last", "3"))).containsExactly("100 expire", "200 keep", "300 keep", "400 keep");
    }

    @Test
    @Order(2)
    void aPinKeepsAStepUntilItIsUnpinnedAndAReaderCannotPin() throws Exception {
        Result pinned = cli("checkpoint", "pin", "--experiment", "e2e", "--run", "run1", "--step", "300");
        assertThat(pinned.exit()).as(pinned.err()).isZero();
        assertThat(decisions(plan("run1"))).containsExactly("100 expire", "200 keep", "300 keep", "400 keep");
        assertThat(keptBy(plan("run1"), 300)).containsExactly("pinned");

        Result unpinned = cli("checkpoint", "unpin", "--experiment", "e2e", "--run", "run1", "--step", "300");
        assertThat(unpinned.exit()).as(unpinned.err()).isZero();
        assertThat(decisions(plan("run1"))).containsExactly("100 expire", "200 keep", "300 expire", "400 keep");

        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip());
        try {
            Result refused = cli("checkpoint", "pin", "--experiment", "e2e", "--run", "run1", "--step", "100");
            assertThat(refused.exit()).as("a refused token is not a denied release").isEqualTo(CliException.UNAUTHORISED);
        } finally {
            System.setProperty("stowage.token", operatorToken);
        }
        assertThat(decisions(plan("run1"))).as("the refused pin changed nothing")
                .containsExactly("100 expire", "200 keep", "300 expire", "400 keep");
    }

    @Test
    @Order(3)
    void aRunResumedFromStepThreeHundredWithKeepLastTwoKeepsExactlyTwoSteps() throws Exception {
        Path run2 = Files.createDirectories(runDir.resolveSibling("run2"));
        for (long step = 100; step <= 400; step += 100) {
            publish(run2, "run2", step, "first-" + step);
        }
        // resumed from 300: step 400 is written again (other weights), then 500
        publish(run2, "run2", 400, "resumed-400");
        publish(run2, "run2", 500, "resumed-500");

        // the second publish of 400 returns once the step has as many verified objects as files; wait for its own
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            JsonNode step400 = plan("run2").path("steps").get(3);
            return step400.path("verified").asBoolean() && step400.path("stores").path("primary").path("keys").size() == 2;
        });
        JsonNode plan = plan("run2", "--keep-last", "2");

        assertThat(decisions(plan)).containsExactly("100 expire", "200 expire", "300 expire", "400 keep", "500 keep");
        assertThat(keptBy(plan, 400)).containsExactly("keep-last");
        assertThat(plan.path("steps").get(3).path("stores").path("primary").path("keys"))
                .as("both publishes of step 400 are its objects").hasSize(2);

        // every step was published within this test, so in one window of ten years: keep-interval keeps its newest
        JsonNode byInterval = plan("run2", "--keep-interval", "3650d");
        assertThat(byInterval.path("policy").path("keepInterval").asText()).isEqualTo("PT87600H");
        assertThat(decisions(byInterval)).containsExactly("100 expire", "200 expire", "300 expire", "400 expire", "500 keep");
        assertThat(keptBy(byInterval, 500)).contains("keep-interval");
    }

    @Test
    @Order(4)
    void aPinOrUnpinOfAStepOrRunTheLedgerDoesNotKnowIsRefusedAndRecordsNothing() throws Exception {
        Result unknownStep = cli("checkpoint", "pin", "--experiment", "e2e", "--run", "run1", "--step", "999");
        Result unknownRun = cli("checkpoint", "unpin", "--experiment", "e2e", "--run", "nosuch", "--step", "100");

        assertThat(unknownStep.exit()).isEqualTo(CliException.FAILED);
        assertThat(unknownStep.err()).isEqualTo("stowage: the ledger knows no step 999 of e2e/run1 (its stored steps: 100, 200,"
                + " 300, 400): nothing pinned\n");
        assertThat(unknownRun.exit()).isEqualTo(CliException.FAILED);
        assertThat(unknownRun.err()).isEqualTo("stowage: the ledger knows no run e2e/nosuch (no checkpoint step of it was"
                + " published): nothing unpinned\n");
        assertThat(unknownStep.out() + unknownRun.out()).isEmpty();
        // a pin the gatekeeper accepted would be in the ledger by now: the CLI waits for its event before it returns
        assertThat(eventsOf("checkpoint/e2e/run1/000000000999")).as("nothing recorded").isEmpty();
        assertThat(eventsOf("checkpoint/e2e/nosuch/000000000100")).as("nothing recorded").isEmpty();
    }

    @Test
    @Order(5)
    void costOfARunTheLedgerDoesNotKnowIsOneLineAndExitOne() {
        Result unknown = cli("cost", "--run", "nosuch/run");
        assertThat(unknown.exit()).isEqualTo(CliException.FAILED);
        assertThat(unknown.err()).isEqualTo("stowage: the ledger knows no run nosuch/run (no attempt and no checkpoint step of it)\n");
        assertThat(unknown.out()).isEmpty();

        Result stepsOnly = cli("cost", "--run", "e2e/run1");
        assertThat(stepsOnly.exit()).as("a run with checkpoint steps but no attempt is known: " + stepsOnly.err()).isZero();
        assertThat(stepsOnly.out()).startsWith("run e2e/run1: not started");
    }

    @Test
    @Order(6)
    void aTokenTheServicesRefuseOnAReadIsExitFourWithOneLineAndNoHalfPrintedTable() {
        System.setProperty("stowage.token", "not-a-token-" + java.util.UUID.randomUUID());
        try {
            Result status = cli("status");
            Result runs = cli("run", "list");

            assertThat(status.exit()).isEqualTo(CliException.UNAUTHORISED).isEqualTo(4);
            assertThat(status.out()).as("no services table before the token error").isEmpty();
            assertThat(status.err()).startsWith("stowage: /api/status refused: no or unknown bearer token").hasLineCount(1);
            assertThat(runs.exit()).isEqualTo(CliException.UNAUTHORISED);
            assertThat(runs.err()).startsWith("stowage: /api/").contains("refused: no or unknown bearer token").hasLineCount(1);
        } finally {
            System.setProperty("stowage.token", operatorToken);
        }
    }

    /** @return the ledger's events of {@code assetId} ({@code GET /api/events?assetId=}); empty when it holds none */
    private static List<String> eventsOf(String assetId) {
        JsonNode events = new io.stowage.cli.client.HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/events?assetId=" + assetId), JsonNode.class).orElse(EventCodec.mapper().createArrayNode());
        List<String> out = new ArrayList<>();
        events.forEach(e -> out.add(e.toString()));
        return out;
    }

    private static void publish(Path run, String runName, long step, String content, String... metrics) throws Exception {
        Path dir = Files.createDirectories(run.resolve("step-" + step));
        Files.writeString(dir.resolve("weights.bin"), content.repeat(100));
        List<String> args = new ArrayList<>(List.of("checkpoint", "publish", dir.toString(), "--experiment", "e2e",
                "--run", runName));
        for (String metric : metrics) {
            args.addAll(List.of("--metric", metric));
        }
        Result published = cli(args.toArray(String[]::new));
        assertThat(published.exit()).as(published.err()).isZero();
    }

    private static JsonNode plan(String run, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("retention", "plan", "--experiment", "e2e", "--run", run,
                "--capsule", runDir.toString(), "--json"));
        args.addAll(List.of(extra));
        Result result = cli(args.toArray(String[]::new));
        assertThat(result.exit()).as(result.err()).isZero();
        return EventCodec.mapper().readTree(result.out());
    }

    private static List<String> decisions(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.path("steps").forEach(s -> out.add(s.path("step").asLong() + " " + s.path("decision").asText()));
        return out;
    }

    private static List<String> keptBy(JsonNode plan, long step) {
        List<String> out = new ArrayList<>();
        plan.path("steps").forEach(s -> {
            if (s.path("step").asLong() == step) {
                s.path("keptBy").forEach(r -> out.add(r.asText()));
            }
        });
        return out;
    }


    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
