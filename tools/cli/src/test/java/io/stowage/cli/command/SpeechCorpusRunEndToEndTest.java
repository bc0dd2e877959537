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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run a new user tries first, with the real {@code examples/pytorch/train.py} (CPU, Debian's python3-torch) on the
 * full speech corpus (Debian's asterisk-core-sounds-en-wav, 568 prompts) and a real {@code stowage watch} process
 * against the six packaged services: the watch is started before the trainer has created its run directory; the
 * trainer publishes a step every 50 iterations (paced with {@code --min-step-seconds} to about 2.5 s per 50, as on a
 * slower machine); once step 350 is written the test holds the trainer (SIGSTOP) until seven steps are published and
 * verified, then kills it (SIGKILL) inside step 400; {@code checkpoint fetch --latest} returns step 350, byte for byte,
 * and a trainer resumed from the fetched step says so in its log and its run file and trains on to step 500, which the
 * same watch publishes and, the run completed and verified, ends; the ledger accounts the killed attempt as preempted. Skipped without PyTorch or the corpus.
 */
class SpeechCorpusRunEndToEndTest {
    private static final Path CORPUS = Path.of("/usr/share/asterisk/sounds/en_US_f_Allison");
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static Path work;
    private static Platform platform;
    private static Process watch;
    private static Process trainer;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(torch(), "needs PyTorch for /usr/bin/python3 (Debian: apt-get install python3-torch)");
        Assumptions.assumeTrue(Files.isDirectory(CORPUS.resolve("digits")),
                "needs the speech corpus " + CORPUS + " (Debian: apt-get install asterisk-core-sounds-en-wav)");
        work = Files.createTempDirectory("stowage-corpus-e2e-");
        Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work), List.of(work.resolve("hot")), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("stowage.home");
        for (Process p : new Process[]{trainer, watch}) {
            if (p != null) {
                p.destroyForcibly();
            }
        }
        if (platform != null) {
            platform.close();
        }
        if (work != null) {
            try {
                deleteTree(work);
            } catch (java.io.IOException e) {
                System.err.println("could not remove " + work + ": " + e.getMessage());
            }
        }
    }

    @Test
    void onTheFullCorpusSevenVerifiedStepsSurviveAKilledTrainerAndTheRunResumesFromStep350() throws Exception {
        Path runDir = work.resolve("hot/speech-digits/run-corpus");
        Path watchLog = work.resolve("watch.log");
        watch = watchProcess(runDir, watchLog);
        awaitLog(watchLog, "waiting for " + runDir + " to appear (the trainer creates it)");
        assertThat(runDir).doesNotExist();

        trainer = train(runDir, work.resolve("train-1.log"), "--min-step-seconds", "0.05");
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> Files.isDirectory(step(runDir, 350)));
        run("kill", "-STOP", String.valueOf(trainer.pid()));
        assertThat(step(runDir, 400)).as("held before step 400 (2.5 s of pace after step 350)").doesNotExist();

        awaitLog(watchLog, "last published step 350 (7 steps in all); waiting on step 400");
        JsonNode first = awaitCost(c -> c.path("checkpointOverhead").path("verifiedSteps").asInt() == 7
                && c.path("checkpointOverhead").path("unverifiedSteps").asInt() == 0);
        assertThat(first.path("lastStep").asLong()).isEqualTo(350);
        assertThat(trainer.isAlive()).isTrue();
        trainer.destroyForcibly(); // SIGKILL, in the middle of the iterations towards step 400
        assertThat(trainer.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(trainer.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        Awaitility.await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(watch::isAlive);

        Path fetched = work.resolve("fetched-350");
        assertThat(latest(fetched)).isEqualTo(350);
        assertThat(Files.readAllBytes(fetched.resolve("model.pt"))).isEqualTo(Files.readAllBytes(step(runDir, 350).resolve("model.pt")));
        assertThat(Files.readAllBytes(fetched.resolve("optimizer.pt")))
                .isEqualTo(Files.readAllBytes(step(runDir, 350).resolve("optimizer.pt")));

        trainer = train(runDir, work.resolve("train-2.log"), "--resume-from", fetched.toString());
        assertThat(trainer.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        String resumedLog = Files.readString(work.resolve("train-2.log"));
        assertThat(trainer.exitValue()).as(resumedLog).isZero();
        assertThat(resumedLog).contains("resumed from " + fetched + " at step 351").contains("step 400: loss")
                .doesNotContain("step 350: loss");
        List<JsonNode> starts = runFileLines(runDir, "run.started");
        assertThat(starts).hasSize(2);
        assertThat(starts.get(0).path("resumedFromStep").isNull()).isTrue();
        assertThat(starts.get(1).path("resumedFromStep").asLong()).as("the resumed attempt records its step").isEqualTo(350);
        assertThat(json(Files.readString(step(runDir, 400).resolve("provenance.json"))).path("step").asLong()).isEqualTo(400);

        awaitLog(watchLog, "last published step 500 (10 steps in all)");
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).alias("step 500 is the latest verified step")
                .until(() -> latest(work.resolve("fetched-500")) == 500);
        JsonNode state = json(Files.readString(work.resolve("state/watch-speech-digits-run-corpus.json")));
        List<Long> published = new ArrayList<>();
        state.path("published").forEach(s -> published.add(s.asLong()));
        assertThat(published).containsExactly(50L, 100L, 150L, 200L, 250L, 300L, 350L, 400L, 450L, 500L);
        JsonNode cost = awaitCost(c -> c.path("verdict").asText().equals("finished")
                && c.path("checkpointOverhead").path("verifiedSteps").asInt() == 10);
        assertThat(cost.path("attemptCount").asInt()).isEqualTo(2);
        assertThat(cost.path("interruptions").findValuesAsText("kind")).as("the killed attempt").containsExactly("preempted");
        assertThat(watch.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the watch ends once the completed run is verified").isTrue();
        assertThat(watch.exitValue()).isZero();
        assertThat(Files.readString(watchLog)).as("a watch without --resources holds nothing and says so")
                .contains("the run's last step 500 is verified; nothing held, nothing torn down").doesNotContain("pods are terminated");
    }

    private static Path step(Path runDir, long step) {
        return runDir.resolve(String.format("step-%012d", step));
    }

    private static Process train(Path runDir, Path log, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3", "examples/pytorch/train.py", "--data",
                CORPUS.toString(), "--out", runDir.toString(), "--steps", "500", "--save-every", "50", "--wall-time", "1h",
                "--data-revision", "asterisk-core-sounds-en-wav@1.6.1"));
        command.addAll(List.of(more));
        return new ProcessBuilder(command).directory(Repo.root().toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
    }

    private static Process watchProcess(Path runDir, Path log) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), StowageCli.class.getName(),
                "watch", runDir.toString(), "--experiment", "speech-digits", "--run", "run-corpus", "--interval", "1");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("STOWAGE_HOME", work.toString());
        return builder.start();
    }

    private static void awaitLog(Path log, String line) {
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(250)).alias("watch says: " + line)
                .until(() -> Files.readString(log).contains(line));
        assertThat(watch.isAlive()).as("the watch is still running").isTrue();
    }

    private static JsonNode awaitCost(java.util.function.Predicate<JsonNode> done) {
        JsonNode[] got = new JsonNode[1];
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).alias("the run's accounting in the ledger")
                .until(() -> {
                    CliRun.Result result = CliRun.run("cost", "--run", "speech-digits/run-corpus", "--json");
                    got[0] = result.exit() == 0 ? json(result.out()) : null;
                    return got[0] != null && done.test(got[0]);
                });
        return got[0];
    }

    private static long latest(Path to) throws Exception {
        deleteTree(to);
        CliRun.Result fetched = CliRun.run("checkpoint", "fetch", "--experiment", "speech-digits", "--run", "run-corpus",
                "--latest", "--to", to.toString(), "--json");
        assertThat(fetched.exit()).as(fetched.err()).isZero();
        return json(fetched.out().lines().reduce((a, b) -> b).orElse("{}")).path("step").asLong();
    }

    private static List<JsonNode> runFileLines(Path runDir, String event) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(runDir.resolve(".stowage-run.jsonl"))) {
            JsonNode node = json(line);
            if (event.equals(node.path("event").asText())) {
                lines.add(node);
            }
        }
        return lines;
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
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

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
