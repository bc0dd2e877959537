package io.stowage.cli.platform;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Supervision over real processes ({@code sleep}), killed with SIGKILL; no services, no stack. */
class ServiceSupervisorTest {
    private static final RestartBackoff FAST = new RestartBackoff(Duration.ofMillis(100), Duration.ofMillis(400),
            Duration.ofSeconds(60));
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<Process> started = new CopyOnWriteArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
    }

    private Process sleeper() throws IOException {
        Process process = new ProcessBuilder("sleep", "120").start();
        started.add(process);
        return process;
    }

    @Test
    void aKilledServiceIsStartedAgainCountedAndSaidOnOneLine() throws Exception {
        try (ServiceSupervisor supervisor = new ServiceSupervisor(name -> sleeper(), FAST, dir.resolve("services.json"),
                lines::add, Clock.systemUTC())) {
            Process first = sleeper();
            supervisor.watch("uploader", first);
            supervisor.watch("verifier", sleeper());
            new ProcessBuilder("kill", "-KILL", String.valueOf(first.pid())).start().waitFor();

            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> SupervisionState.readFrom(dir.resolve("services.json"))
                    .flatMap(s -> s.service("uploader")).filter(s -> s.restarts() == 1 && "running".equals(s.state())).isPresent());
            SupervisedService uploader = SupervisionState.readFrom(dir.resolve("services.json")).orElseThrow()
                    .service("uploader").orElseThrow();
            assertThat(uploader.pid()).isNotEqualTo(first.pid());
            assertThat(ProcessHandle.of(uploader.pid()).map(ProcessHandle::isAlive)).contains(true);
            assertThat(uploader.lastExitCode()).isEqualTo(137);
            assertThat(uploader.lastRestart()).isNotNull();
            assertThat(supervisor.state().service("verifier").orElseThrow().restarts()).isZero();
            assertThat(lines.get(0)).isEqualTo("==> service uploader (pid " + first.pid()
                    + ") exited with code 137; restarting it in 100 ms (restart 1)");
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 2);
            assertThat(lines.get(1)).isEqualTo("==> service uploader restarted (pid " + uploader.pid() + ") and ready");
        }
    }

    @Test
    void aKilledServerIsStartedAgainThroughTheStackAndListedAfterTheServices() throws Exception {
        AtomicInteger restarts = new AtomicInteger();
        ServiceSupervisor.Servers stack = new ServiceSupervisor.Servers() {
            @Override
            public ProcessHandle restart(String name) throws IOException {
                restarts.incrementAndGet();
                return sleeper().toHandle();
            }

            @Override
            public Integer exitCode(String name) {
                return null; // as for PostgreSQL's postmaster, which is no child of stowage up
            }
        };
        try (ServiceSupervisor supervisor = new ServiceSupervisor(name -> sleeper(), FAST, dir.resolve("services.json"),
                lines::add, Clock.systemUTC())) {
            supervisor.watch("ledger", sleeper());
            ProcessHandle postmaster = sleeper().toHandle();
            supervisor.watchServer("postgres", postmaster, stack);
            new ProcessBuilder("kill", "-KILL", String.valueOf(postmaster.pid())).start().waitFor();

            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> SupervisionState.readFrom(dir.resolve("services.json"))
                    .flatMap(s -> s.service("postgres")).filter(s -> s.restarts() == 1 && "running".equals(s.state())).isPresent());
            SupervisionState state = SupervisionState.readFrom(dir.resolve("services.json")).orElseThrow();
            assertThat(state.services()).extracting(SupervisedService::name).containsExactly("ledger", "postgres");
            SupervisedService postgres = state.service("postgres").orElseThrow();
            assertThat(postgres.pid()).isNotEqualTo(postmaster.pid());
            assertThat(postgres.lastExitCode()).isNull();
            assertThat(restarts.get()).isEqualTo(1);
            assertThat(state.service("ledger").orElseThrow().restarts()).isZero();
            assertThat(lines.get(0)).isEqualTo("==> server postgres (pid " + postmaster.pid()
                    + ") exited; restarting it in 100 ms (restart 1)");
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 2);
            assertThat(lines.get(1)).isEqualTo("==> server postgres restarted (pid " + postgres.pid() + ") and answering");
        }
    }

    @Test
    void exitsInARowWaitLongerUpToTheBoundAndAFailedStartIsTriedAgain() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        ServiceSupervisor.Relauncher flaky = name -> {
            if (attempts.incrementAndGet() == 2) {
                throw new IOException("port taken");
            }
            return sleeper();
        };
        try (ServiceSupervisor supervisor = new ServiceSupervisor(flaky, FAST, dir.resolve("services.json"), lines::add,
                Clock.systemUTC())) {
            Process p = sleeper();
            supervisor.watch("gatekeeper", p);
            for (int kill = 1; kill <= 2; kill++) {
                long pid = supervisor.state().service("gatekeeper").orElseThrow().pid();
                new ProcessBuilder("kill", "-KILL", String.valueOf(pid)).start().waitFor();
                int restarts = kill == 1 ? 1 : 3;
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.state().service("gatekeeper")
                        .filter(s -> s.restarts() == restarts && s.pid() != null && s.pid() != pid).isPresent());
            }
            assertThat(lines).filteredOn(l -> l.contains("exited")).extracting(l -> l.replaceAll("pid \\d+", "pid N"))
                    .containsExactly("==> service gatekeeper (pid N) exited with code 137; restarting it in 100 ms (restart 1)",
                            "==> service gatekeeper (pid N) exited with code 137; restarting it in 200 ms (restart 2)");
            assertThat(lines).contains("==> service gatekeeper did not come back (port taken); trying again in 400 ms (restart 3)");
        }
    }

    @Test
    void aHeldServiceIsNotRestartedAndAClosedSupervisorRestartsNothing() throws Exception {
        AtomicInteger relaunches = new AtomicInteger();
        ServiceSupervisor supervisor = new ServiceSupervisor(name -> {
            relaunches.incrementAndGet();
            return sleeper();
        }, FAST, dir.resolve("services.json"), lines::add, Clock.systemUTC());
        Process held = sleeper();
        Process other = sleeper();
        supervisor.watch("verifier", held);
        supervisor.watch("ledger", other);
        supervisor.hold("verifier");
        held.destroyForcibly().waitFor();
        supervisor.close();
        other.destroyForcibly().waitFor();
        // longer than the backoff: a restart would have happened by now
        Awaitility.await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2)).until(() -> relaunches.get() == 0);
        assertThat(lines).isEmpty();
    }
}
