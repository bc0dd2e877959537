package io.stowage.cli.platform;

import io.stowage.cli.CliRun;
import io.stowage.cli.Repo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real {@code stowage up} (the CLI in its own JVM on the test's class path — the CLI's jar is not built yet when
 * {@code verify} runs the tests of a clean clone — with the packaged services) killed with SIGKILL leaves
 * nothing running: every process it started — the six service JVMs, Kafka, S3Proxy, PostgreSQL and their watchdogs —
 * ends by itself, since no shutdown hook of the killed JVM runs; and {@code stowage down} stops a running one.
 */
class UpKilledEndToEndTest {
    private final List<ProcessHandle> started = new ArrayList<>();
    private Process up;
    private Path home;

    @AfterEach
    void cleanUp() throws Exception {
        // only what this test started, by pid
        if (up != null) {
            up.destroyForcibly();
        }
        started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        if (home != null) {
            try (var paths = Files.walk(home)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Starts {@code stowage up} in its own JVM and returns once it says it is up, with its descendants recorded. */
    private void startUp(String prefix) throws Exception {
        home = Files.createTempDirectory(prefix);
        Path log = home.resolve("up.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dstowage.repo=" + Repo.root(), "-cp", System.getProperty("java.class.path"),
                io.stowage.cli.StowageCli.class.getName(), "up");
        builder.environment().put("STOWAGE_HOME", home.toString());
        builder.redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        up = builder.start();
        await("stowage up ready, see " + log).atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    assertThat(up.isAlive()).as("stowage up alive, see %s", log).isTrue();
                    return Files.readString(log).contains("Press Ctrl-C to stop.");
                });
        up.toHandle().descendants().forEach(started::add);
        List<String> javas = started.stream().map(p -> p.info().command().orElse("?"))
                .filter(c -> c.endsWith("/java")).toList();
        assertThat(javas).as("six services, Kafka and S3Proxy").hasSizeGreaterThanOrEqualTo(8);
    }

    /**
     * {@code stowage down} (a second CLI, same {@code STOWAGE_HOME}) stops a running {@code up} as Ctrl-C does: when
     * it returns, the {@code up} and every process it started have ended and {@code session.json} is gone.
     */
    @Test
    void downStopsTheUpAndEveryProcessItStarted() throws Exception {
        startUp("stowage-up-down-");
        CliRun.Result dryRun = CliRun.runWithHome(home, "down", "--dry-run");
        assertThat(dryRun.exit()).isZero();
        assertThat(dryRun.out()).contains("would stop 'stowage up' (pid " + up.pid() + ")", "ledger");
        assertThat(up.isAlive()).as("a dry run signals nothing").isTrue();

        CliRun.Result down = CliRun.runWithHome(home, "down", "--json");

        assertThat(down.exit()).as(down.err()).isZero();
        assertThat(down.out()).contains("\"running\":true", "\"pid\":" + up.pid(), "\"stopped\":true");
        assertThat(up.isAlive()).isFalse();
        assertThat(home.resolve("session.json")).doesNotExist();
        await("every process of the stopped stowage up ends").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(started.stream()
                        .filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().commandLine()
                                .map(UpKilledEndToEndTest::shortened).orElse("?"))).as("still running after down").isEmpty());
        assertThat(CliRun.runWithHome(home, "down").out()).contains("nothing to stop");
    }

    @Test
    void everyProcessOfAKilledUpEnds() throws Exception {
        startUp("stowage-up-killed-");

        new ProcessBuilder("kill", "-KILL", String.valueOf(up.pid())).inheritIO().start().waitFor();
        assertThat(up.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        await("every process of the killed stowage up ends").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(started.stream().filter(ProcessHandle::isAlive)
                        .map(p -> p.pid() + " " + p.info().commandLine().map(UpKilledEndToEndTest::shortened).orElse("?")))
                        .as("still running after the kill").isEmpty());
    }

    private static String shortened(String commandLine) {
        return commandLine.length() > 160 ? commandLine.substring(0, 160) + "..." : commandLine;
    }
}
