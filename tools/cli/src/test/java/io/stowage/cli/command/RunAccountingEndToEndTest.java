package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliRun;
import io.stowage.cli.Repo;
import io.stowage.cli.StowageCli;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run's discipline without a person, with the real {@code examples/pytorch/train.py} (CPU, Debian's
 * python3-torch) and a real {@code stowage watch --resources} process against the six packaged services: a wall-time
 * cap of a few seconds at the provider-adapter makes the watch stop the run by itself (the trainer saves and answers,
 * the step is verified, then the pod is terminated and the volume destroyed through the gate), and {@code cost --run}
 * shows the run's wall and training seconds and its checkpoint overhead; a run that completes is torn down once its
 * last step is verified. Skipped without PyTorch.
 */
class RunAccountingEndToEndTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static Path work;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(torch(), "needs PyTorch for /usr/bin/python3 (Debian: apt-get install python3-torch)");
        work = Files.createTempDirectory("stowage-run-accounting-e2e-");
        Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work), List.of(work.resolve("hot")), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.home");
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aCapOfAFewSecondsStopsTheRunByItselfAtAVerifiedStepAndTheRunIsAccounted() throws Exception {
        Path runDir = work.resolve("hot/speech-digits/run-c");
        JsonNode pod = json(cli("pod", "create", "--name", "trainer-c", "--run", "run-c", "--price-per-hour", "0.44", "--json"));
        JsonNode volume = json(cli("volume", "create", "--size", "10GB", "--name", "scratch-c", "--run", "run-c", "--json"));
        assertThat(cli("run", "cap", "run-c", "--max-time", "4s").exit()).isZero();
        Process trainer = train(runDir, "100000000", "1000", work.resolve("train-c.log"));
        Process watch = watch(runDir, "run-c", trainer.pid(), work.resolve("watch-c.log"));
        try {
            // the adapter's sweep runs every minute; a drill sweeps now until the cap asks for the checkpoint
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> {
                cli("volume", "sweep");
                return json(cli("run", "list", "--json")).path("caps").findValuesAsText("checkpointRequestedAt").size() > 0;
            });

            assertThat(watch.waitFor(3, TimeUnit.MINUTES)).as("the watch ends after the stop").isTrue();
            String log = Files.readString(work.resolve("watch-c.log"));
            assertThat(watch.exitValue()).as(log).isZero();
            long step = json(Files.readString(runDir.resolve(".stowage-stop-answer.json"))).path("step").asLong();
            assertThat(log).contains("stopped at the cap at verified step " + step);
            assertThat(trainer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(trainer.exitValue()).isZero();
            assertThat(Files.readString(work.resolve("train-c.log"))).contains("step " + step + ": stop requested (cap-reached)");
            assertThat(podOf(pod.path("id").asText()).hasNonNull("terminatedAt")).as("the pod is terminated").isTrue();
            assertThat(volumeOf(volume.path("id").asText()).path("state").asText()).isEqualTo("DESTROYED");
            assertThat(Path.of(volume.path("path").asText())).doesNotExist();
            assertThat(latest("run-c", work.resolve("fetched-c"))).as("the cap's step is the run's latest").isEqualTo(step);
            Path fetched = work.resolve("fetched-c");
            Process resumed = new ProcessBuilder("/usr/bin/python3", "examples/pytorch/train.py", "--data",
                    "examples/samples/speech-en-allison", "--out", work.resolve("resumed-c").toString(), "--steps",
                    String.valueOf(step + 5), "--save-every", "1000", "--wall-time", "1h", "--resume-from", fetched.toString())
                    .directory(Repo.root().toFile()).redirectErrorStream(true)
                    .redirectOutput(work.resolve("train-c-resumed.log").toFile()).start();
            assertThat(resumed.waitFor(2, TimeUnit.MINUTES)).as("the resumed trainer ends").isTrue();
            String resumedLog = Files.readString(work.resolve("train-c-resumed.log"));
            assertThat(resumed.exitValue()).as(resumedLog).isZero();
            assertThat(resumedLog).as("the run resumes from the cap's step")
                    .contains("resumed from " + fetched + " at step " + (step + 1));

            JsonNode cost = awaitCost("speech-digits/run-c", "stopped at cap");
            assertThat(cost.path("wallSeconds").asDouble()).isGreaterThan(1.0);
            assertThat(cost.path("trainingSeconds").asDouble()).isGreaterThan(0.0).isLessThan(cost.path("wallSeconds").asDouble());
            assertThat(cost.path("dataWaitSeconds").asDouble()).isGreaterThan(0.0);
            assertThat(cost.path("lastStep").asLong()).isEqualTo(step);
            JsonNode overhead = cost.path("checkpointOverhead");
            assertThat(overhead.path("verifiedSteps").asInt()).isGreaterThanOrEqualTo(1);
            assertThat(overhead.path("totalSeconds").asDouble()).isGreaterThan(0.0);
            assertThat(cost.path("storage").path("checkpointBytes").asLong()).isGreaterThan(0);
            assertThat(cost.path("podsUsdPerHour").decimalValue()).isEqualByComparingTo("0.44");
            assertThat(cost.path("interruptions")).isEmpty();
            assertThat(cli("cost", "--run", "speech-digits/run-c").out()).contains("run speech-digits/run-c: stopped at cap")
                    .contains("checkpoint overhead (published -> verified)");
            assertThat(cli("run", "list").out()).containsPattern("speech-digits/run-c\\s+stopped at cap");
        } finally {
            watch.destroyForcibly();
            trainer.destroyForcibly();
        }
    }

    @Test
    void aRunThatCompletesIsTornDownOnceItsLastStepIsVerified() throws Exception {
        Path runDir = work.resolve("hot/speech-digits/run-f");
        JsonNode pod = json(cli("pod", "create", "--name", "trainer-f", "--run", "run-f", "--json"));
        JsonNode volume = json(cli("volume", "create", "--size", "10GB", "--name", "scratch-f", "--run", "run-f", "--json"));
        Process trainer = train(runDir, "300", "100", work.resolve("train-f.log"));
        Process watch = watch(runDir, "run-f", null, work.resolve("watch-f.log"));
        try {
            assertThat(trainer.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(trainer.exitValue()).isZero();

            assertThat(watch.waitFor(3, TimeUnit.MINUTES)).as("the watch ends after the teardown").isTrue();
            String log = Files.readString(work.resolve("watch-f.log"));
            assertThat(watch.exitValue()).as(log).isZero();
            assertThat(log).contains("run torn down after its last step 300 was verified");
            assertThat(podOf(pod.path("id").asText()).hasNonNull("terminatedAt")).isTrue();
            assertThat(volumeOf(volume.path("id").asText()).path("state").asText()).isEqualTo("DESTROYED");
            assertThat(latest("run-f", work.resolve("fetched-f"))).isEqualTo(300);
            JsonNode cost = awaitCost("speech-digits/run-f", "finished");
            assertThat(cost.path("checkpointOverhead").path("verifiedSteps").asInt()).isEqualTo(3);
            assertThat(cost.path("attemptCount").asInt()).isEqualTo(1);
        } finally {
            watch.destroyForcibly();
        }
    }

    private static JsonNode awaitCost(String run, String verdict) {
        JsonNode[] got = new JsonNode[1];
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).alias(run + " is " + verdict + " in the ledger")
                .until(() -> {
                    got[0] = json(cli("cost", "--run", run, "--json"));
                    return got[0].path("verdict").asText().equals(verdict)
                            && got[0].path("checkpointOverhead").path("unverifiedSteps").asInt() == 0;
                });
        return got[0];
    }

    private static long latest(String run, Path to) throws Exception {
        CliRun.Result fetched = cli("checkpoint", "fetch", "--experiment", "speech-digits", "--run", run, "--latest",
                "--to", to.toString(), "--json");
        assertThat(fetched.exit()).as(fetched.err()).isZero();
        return json(fetched.out().lines().reduce((a, b) -> b).orElse("{}")).path("step").asLong();
    }

    private static JsonNode podOf(String id) throws Exception {
        for (JsonNode p : json(cli("pod", "list", "--json"))) {
            if (p.path("id").asText().equals(id)) {
                return p;
            }
        }
        throw new AssertionError("no pod " + id);
    }

    private static JsonNode volumeOf(String id) throws Exception {
        for (JsonNode v : json(cli("volume", "list", "--json"))) {
            if (v.path("id").asText().equals(id)) {
                return v;
            }
        }
        throw new AssertionError("no volume " + id);
    }

    private static Process train(Path runDir, String steps, String saveEvery, Path log) throws Exception {
        return new ProcessBuilder("/usr/bin/python3", "examples/pytorch/train.py", "--data", "examples/samples/speech-en-allison",
                "--out", runDir.toString(), "--steps", steps, "--save-every", saveEvery, "--wall-time", "1h")
                .directory(Repo.root().toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static Process watch(Path runDir, String resources, Long trainerPid, Path log) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), StowageCli.class.getName(),
                "watch", runDir.toString(), "--experiment", "speech-digits", "--run", resources, "--interval", "1",
                "--resources", resources, "--stop-grace", "3m"));
        if (trainerPid != null) {
            command.addAll(List.of("--trainer-pid", String.valueOf(trainerPid)));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("STOWAGE_HOME", work.toString());
        return builder.start();
    }

    private static CliRun.Result cli(String... args) {
        return CliRun.run(args);
    }

    private static JsonNode json(CliRun.Result result) throws Exception {
        assertThat(result.exit()).as(result.err()).isZero();
        return json(result.out());
    }

    private static JsonNode json(String text) throws Exception {
        return EventCodec.mapper().readTree(text);
    }

    private static boolean torch() {
        try {
            return new ProcessBuilder("/usr/bin/python3", "-c", "import torch").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
