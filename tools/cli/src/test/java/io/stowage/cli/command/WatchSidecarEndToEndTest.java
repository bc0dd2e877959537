package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.StowageCli;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage watch} as a pod's sidecar runs it, a real process beside a real trainer process, against the six
 * packaged services on the real Kafka, S3Proxy and PostgreSQL: started before the run directory exists, it waits for
 * it; the trainer writes seven steps (tmp name + rename, as {@code examples/pytorch/train.py} does), is killed in the
 * middle of step 400, and the watch lives on, saying step 350 was published last and step 400 is awaited;
 * {@code checkpoint fetch --latest} returns step 350; the restarted trainer (resuming at 400, clearing its stale
 * temporary directory) writes two more, and the watch publishes them. Then {@code capsule lint} with the stack up
 * resolves the run's SHA-256s in the ledger. The trainer is a small Python process (PyTorch is not needed to write
 * step directories the way train.py does).
 */
class WatchSidecarEndToEndTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final String WRITER = """
            import json, os, sys, time
            out, steps, hang = sys.argv[1], [int(s) for s in sys.argv[2].split(",")], int(sys.argv[3])
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, ".experiment.json.tmp"), "w") as f:
                json.dump({"experimentId": "speech-digits", "checkpointInterval": 50, "seed": 7}, f)
            os.rename(os.path.join(out, ".experiment.json.tmp"), os.path.join(out, "experiment.json"))
            def write(step, complete):
                tmp = os.path.join(out, ".tmp-step-%012d" % step)
                if os.path.isdir(tmp):  # left by a killed run: never resumed from, rewritten
                    for name in os.listdir(tmp):
                        os.remove(os.path.join(tmp, name))
                    os.rmdir(tmp)
                os.makedirs(tmp)
                with open(os.path.join(tmp, "model.pt"), "wb") as f:
                    f.write(bytes((step + i) % 251 for i in range(40000)))
                    f.flush(); os.fsync(f.fileno())
                if not complete:
                    print("hanging in step %d" % step, flush=True)
                    time.sleep(3600)
                os.rename(tmp, os.path.join(out, "step-%012d" % step))
                print("wrote step %d" % step, flush=True)
            for step in steps:
                write(step, True)
                time.sleep(0.3)
            if hang:
                write(hang, False)
            """;
    /** A trainer that honours the stop contract through examples/pytorch/stowage_stop.py, saving every 25 iterations. */
    private static final String HONOURING = """
            import os, sys, time
            sys.path.insert(0, sys.argv[2])
            from stowage_stop import StopContract
            out = sys.argv[1]
            os.makedirs(out, exist_ok=True)
            stop = StopContract(out)
            def save(step):
                tmp, final = os.path.join(out, ".tmp-step-%012d" % step), os.path.join(out, "step-%012d" % step)
                os.makedirs(tmp)
                with open(os.path.join(tmp, "model.pt"), "wb") as f:
                    f.write(bytes((3 * step + i) % 251 for i in range(30000)))
                    f.flush(); os.fsync(f.fileno())
                os.rename(tmp, final)
                return final
            step = 0
            while True:
                step += 1
                time.sleep(0.1)
                if step % 25 == 0:
                    save(step)
                request = stop.requested()
                if request:
                    path = os.path.join(out, "step-%012d" % step) if step % 25 == 0 else save(step)
                    stop.answer(request, step, path)
                    print("answered %s with step %d" % (request["requestId"], step), flush=True)
                    sys.exit(0)
            """;
    /** A trainer that knows nothing of the contract: it ignores SIGUSR1 and never answers. */
    private static final String DEAF = """
            import os, signal, sys, time
            signal.signal(signal.SIGUSR1, signal.SIG_IGN)
            out = sys.argv[1]
            os.makedirs(os.path.join(out, ".tmp-step-000000000010"))
            with open(os.path.join(out, ".tmp-step-000000000010", "model.pt"), "wb") as f:
                f.write(b"deaf weights" * 1000)
            os.rename(os.path.join(out, ".tmp-step-000000000010"), os.path.join(out, "step-000000000010"))
            print("wrote step 10", flush=True)
            time.sleep(3600)
            """;
    private static Path work;
    private static Platform platform;
    private static Process watch;
    private static Path watchLog;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "needs /usr/bin/python3 for the trainer process");
        work = Files.createTempDirectory("stowage-watch-e2e-");
        Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work), List.of(work.resolve("hot")), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        Files.writeString(work.resolve("writer.py"), WRITER);
        Files.writeString(work.resolve("honouring.py"), HONOURING);
        Files.writeString(work.resolve("deaf.py"), DEAF);
    }

    @AfterAll
    static void stop() {
        if (watch != null) {
            watch.destroyForcibly();
        }
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void theSidecarWaitsForTheRunDirectoryOutlivesAKilledTrainerAndPublishesWhatTheRestartedOneWrites() throws Exception {
        Path runDir = work.resolve("hot/speech-digits/run-w");
        watchLog = work.resolve("watch.log");
        watch = cliProcess(watchLog, "watch", runDir.toString(), "--experiment", "speech-digits", "--run", "run-w",
                "--interval", "1");
        awaitLog("waiting for " + runDir + " to appear (the trainer creates it)");
        Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(watch::isAlive);

        Process first = trainer(runDir, "50,100,150,200,250,300,350", 400);
        awaitLog("last published step 350 (7 steps in all); waiting on step 400 (in progress)");
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(runDir.resolve(".tmp-step-000000000400")).isDirectory();
        Awaitility.await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(watch::isAlive);

        JsonNode fetched = awaitLatest(350, work.resolve("fetched-350"));
        assertThat(fetched.path("step").asLong()).isEqualTo(350);
        byte[] model350 = Files.readAllBytes(work.resolve("fetched-350/model.pt"));
        assertThat(model350).isEqualTo(Files.readAllBytes(runDir.resolve("step-000000000350/model.pt")));

        Process second = trainer(runDir, "400,450", 0);
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isZero();
        awaitLog("last published step 450 (9 steps in all); waiting on step 500");
        assertThat(awaitLatest(450, work.resolve("fetched-450")).path("step").asLong()).isEqualTo(450);
        JsonNode state = EventCodec.mapper().readTree(work.resolve("state/watch-speech-digits-run-w.json").toFile());
        List<Long> published = new ArrayList<>();
        state.path("published").forEach(s -> published.add(s.asLong()));
        assertThat(published).containsExactly(50L, 100L, 150L, 200L, 250L, 300L, 350L, 400L, 450L);
        assertThat(watch.isAlive()).isTrue();

        lintResolvesTheRunsDigestsInTheLedger(runDir, Sha256.of(model350));
    }

    @Test
    void aRunStoppedAtItsCapSavesAStepThatIsVerifiedBeforeItsPodAndVolumeGo() throws Exception {
        Path runDir = work.resolve("hot/speech-digits/run-s");
        Files.createDirectories(runDir);
        Process sidecar = cliProcess(work.resolve("watch-s.log"), "watch", runDir.toString(), "--experiment", "speech-digits",
                "--run", "run-s", "--interval", "1");
        try {
            JsonNode pod = EventCodec.mapper().readTree(cli("pod", "create", "--name", "trainer-s", "--run", "run-s",
                    "--price-per-hour", "0.44", "--json").out);
            JsonNode volume = EventCodec.mapper().readTree(cli("volume", "create", "--size", "10GB", "--name", "scratch-s",
                    "--run", "run-s", "--json").out);
            Process trainer = new ProcessBuilder("/usr/bin/python3", work.resolve("honouring.py").toString(), runDir.toString(),
                    io.stowage.cli.Repo.root().resolve("examples/pytorch").toString()).redirectErrorStream(true)
                    .redirectOutput(work.resolve("honouring.log").toFile()).start();
            Awaitility.await().atMost(WAIT).until(() -> Files.isDirectory(runDir.resolve("step-000000000025")));

            Run stop = cli("run", "stop", runDir.toString(), "--experiment", "speech-digits", "--run", "run-s",
                    "--grace", "3m", "--trainer-pid", String.valueOf(trainer.pid()), "--json");

            assertThat(stop.code).as(stop.out + stop.err).isZero();
            JsonNode outcome = EventCodec.mapper().readTree(stop.out);
            long step = outcome.path("answeredStep").asLong();
            assertThat(step).isGreaterThanOrEqualTo(25);
            assertThat(outcome.path("verified").asBoolean()).isTrue();
            assertThat(outcome.path("alert").isNull()).isTrue();
            assertThat(trainer.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(trainer.exitValue()).as("the trainer exits 0 after answering").isZero();
            assertThat(Files.readString(work.resolve("honouring.log"))).contains("with step " + step);
            assertThat(outcome.path("pods").toString()).contains(pod.path("id").asText() + " terminated");
            assertThat(outcome.path("volumes").toString()).contains(volume.path("id").asText() + " DESTROYED");
            assertThat(Path.of(volume.path("path").asText())).doesNotExist();
            assertThat(awaitLatestOf("run-s", step, work.resolve("fetched-s")).path("step").asLong())
                    .as("the run resumes from the step saved at the cap").isEqualTo(step);
            assertThat(Files.readAllBytes(work.resolve("fetched-s/model.pt")))
                    .isEqualTo(Files.readAllBytes(runDir.resolve(String.format("step-%012d/model.pt", step))));
        } finally {
            sidecar.destroyForcibly();
        }
    }

    @Test
    void theRealPyTorchTrainerStopsAtTheCapAndResumesFromTheVerifiedStep() throws Exception {
        Assumptions.assumeTrue(torch(), "needs PyTorch for /usr/bin/python3 (Debian: apt-get install python3-torch)");
        Path repo = io.stowage.cli.Repo.root();
        Path runDir = work.resolve("hot/speech-digits/run-t");
        Process sidecar = cliProcess(work.resolve("watch-t.log"), "watch", runDir.toString(), "--experiment", "speech-digits",
                "--run", "run-t", "--interval", "1");
        try {
            Process trainer = new ProcessBuilder("/usr/bin/python3", "examples/pytorch/train.py", "--data",
                    "examples/samples/speech-en-allison", "--out", runDir.toString(), "--steps", "100000000",
                    "--save-every", "100000000").directory(repo.toFile()).redirectErrorStream(true)
                    .redirectOutput(work.resolve("train-t.log").toFile()).start();
            Awaitility.await().atMost(WAIT).until(() -> Files.isRegularFile(runDir.resolve("experiment.json")));
            Run lint = cli("capsule", "lint", runDir.toString(), "--local", "--json");
            JsonNode lintOut = EventCodec.mapper().readTree(lint.out);
            // a dirty work tree (a developer's) lacks only the patch hash; a clean clone (CI) is clean
            assertThat(lintOut.path("problems").findValuesAsText("field")).as(lint.out).isSubsetOf(List.of("patchSha256"));

            Run stop = cli("run", "stop", runDir.toString(), "--experiment", "speech-digits", "--run", "run-t",
                    "--grace", "3m", "--trainer-pid", String.valueOf(trainer.pid()), "--json");

            assertThat(stop.code).as(stop.out + stop.err).isZero();
            long step = EventCodec.mapper().readTree(stop.out).path("answeredStep").asLong();
            assertThat(trainer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(trainer.exitValue()).isZero();
            assertThat(Files.readString(work.resolve("train-t.log"))).contains("step " + step + ": stop requested (cap-reached)");
            Path fetched = work.resolve("fetched-t");
            assertThat(awaitLatestOf("run-t", step, fetched).path("step").asLong()).isEqualTo(step);
            Process resumed = new ProcessBuilder("/usr/bin/python3", "examples/pytorch/train.py", "--data",
                    "examples/samples/speech-en-allison", "--out", work.resolve("resumed-t").toString(), "--steps",
                    String.valueOf(step + 2), "--save-every", "100000000", "--resume-from", fetched.toString())
                    .directory(repo.toFile()).redirectErrorStream(true).redirectOutput(work.resolve("resumed-t.log").toFile()).start();
            assertThat(resumed.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(Files.readString(work.resolve("resumed-t.log"))).contains("at step " + (step + 1));
        } finally {
            sidecar.destroyForcibly();
        }
    }

    private static boolean torch() {
        try {
            return new ProcessBuilder("/usr/bin/python3", "-c", "import torch").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void aTrainerThatDoesNotAnswerWithinTheGraceIsStoppedAnywayAndTheAlertNamesTheLastVerifiedStep() throws Exception {
        Path runDir = work.resolve("hot/speech-digits/run-d");
        Files.createDirectories(runDir);
        Process sidecar = cliProcess(work.resolve("watch-d.log"), "watch", runDir.toString(), "--experiment", "speech-digits",
                "--run", "run-d", "--interval", "1");
        try {
            JsonNode pod = EventCodec.mapper().readTree(cli("pod", "create", "--name", "trainer-d", "--run", "run-d", "--json").out);
            Process trainer = new ProcessBuilder("/usr/bin/python3", work.resolve("deaf.py").toString(), runDir.toString())
                    .redirectErrorStream(true).redirectOutput(work.resolve("deaf.log").toFile()).start();
            awaitLatestOf("run-d", 10, work.resolve("fetched-d"));

            Run stop = cli("run", "stop", runDir.toString(), "--experiment", "speech-digits", "--run", "run-d",
                    "--grace", "4s", "--trainer-pid", String.valueOf(trainer.pid()));

            assertThat(stop.code).as(stop.out + stop.err).isEqualTo(1);
            assertThat(stop.err).contains("alert: the trainer did not answer the stop request within 4 s; it was stopped"
                    + " anyway; the last verified step is 10");
            assertThat(trainer.waitFor(20, TimeUnit.SECONDS)).as("the deaf trainer was stopped").isTrue();
            assertThat(stop.out).contains("pod " + pod.path("id").asText() + " terminated");
            assertThat(runDir.resolve(".stowage-stop-request.json")).isRegularFile();
        } finally {
            sidecar.destroyForcibly();
        }
    }

    /** With the stack up, the fetched step's file is a verified object; a data manifest never stored is named. */
    private static void lintResolvesTheRunsDigestsInTheLedger(Path runDir, String model350Sha) throws Exception {
        String unknown = "e".repeat(64);
        Path capsule = Files.writeString(work.resolve("capsule.json"), "{\"resumeFromSha256\":\"" + model350Sha
                + "\",\"dataManifestSha256\":\"" + unknown + "\"}");

        Run run = cli("capsule", "lint", capsule.toString(), "--json");

        assertThat(run.code).as(run.err).isEqualTo(2);
        JsonNode out = EventCodec.mapper().readTree(run.out);
        assertThat(out.path("ledger").asText()).startsWith("asked " + platform.session().serviceUrl("ledger"))
                .endsWith("about 2 SHA-256s");
        List<String> ledgerProblems = new ArrayList<>();
        out.path("problems").forEach(p -> {
            if (p.path("source").asText().equals("ledger")) {
                ledgerProblems.add(p.path("field").asText() + ": " + p.path("problem").asText());
            }
        });
        assertThat(ledgerProblems).containsExactly("dataManifestSha256: " + unknown + " is no object in the ledger");
        assertThat(cli("capsule", "lint", capsule.toString(), "--local", "--json").out).contains("\"ledger\":\"not asked (--local)\"");
    }

    private static JsonNode awaitLatest(long step, Path to) {
        return awaitLatestOf("run-w", step, to);
    }

    private static JsonNode awaitLatestOf(String runName, long step, Path to) {
        JsonNode[] got = new JsonNode[1];
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> {
            deleteTree(to);
            Run run = cli("checkpoint", "fetch", "--experiment", "speech-digits", "--run", runName, "--latest",
                    "--to", to.toString(), "--json");
            if (run.code != 0) {
                return false;
            }
            got[0] = EventCodec.mapper().readTree(run.out.lines().reduce((a, b) -> b).orElse("{}"));
            return got[0].path("step").asLong() == step;
        });
        return got[0];
    }

    private static void awaitLog(String line) {
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .alias("watch says: " + line)
                .until(() -> Files.readString(watchLog).contains(line));
        assertThat(watch.isAlive()).as("the watch is still running").isTrue();
    }

    private static Process trainer(Path runDir, String steps, long hang) throws Exception {
        return new ProcessBuilder("/usr/bin/python3", work.resolve("writer.py").toString(), runDir.toString(), steps,
                String.valueOf(hang)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("trainer.log").toFile())).start();
    }

    private static Process cliProcess(Path log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), StowageCli.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("STOWAGE_HOME", work.toString());
        return builder.start();
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        int code;
        try {
            System.setProperty("stowage.home", work.toString());
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.clearProperty("stowage.home");
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
