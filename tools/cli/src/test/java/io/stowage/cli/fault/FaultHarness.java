package io.stowage.cli.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.platform.SupervisedService;
import org.awaitility.Awaitility;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite's running Stowage: the packaged services as {@code stowage up} starts and supervises them, the real
 * command line run in this JVM, the services' logs watched for the line to strike at, and the faults themselves
 * (SIGKILL of a service, SIGSTOP/SIGCONT of a server).
 */
final class FaultHarness implements AutoCloseable {
    /**
     * Two instances of each service that may run several: every case runs against them (the uploader, verifier and
     * gatekeeper in one consumer group each; the provider-adapter as an active instance and a standby).
     */
    static final java.util.Map<String, Integer> INSTANCES = java.util.Map.of("uploader", 2, "verifier", 2, "gatekeeper", 2,
            "provider-adapter", 2);
    final Path work;
    final Path hot;
    final Platform platform;

    private FaultHarness(Path work, Path hot, Platform platform) {
        this.work = work;
        this.hot = hot;
        this.platform = platform;
    }

    static FaultHarness start() throws IOException {
        Path work = Files.createTempDirectory("stowage-fault-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        Platform platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false),
                io.stowage.stack.StackCredentials.random(), null, INSTANCES);
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        return new FaultHarness(work, hot, platform);
    }

    /** @return the current length of service {@code name}'s log: lines after it are new */
    long logMark(String name) throws IOException {
        return Files.size(log(name));
    }

    /**
     * Waits (every 10 ms, at most {@code within}) for a line matching {@code pattern} written to the log of an instance
     * of {@code service} ({@code uploader}, {@code uploader-2}, …) after that instance's mark.
     *
     * @param marks instance name to the length its log had when the phase began (absent: 0)
     * @return the instance that wrote the line
     */
    String awaitLine(String service, Map<String, Long> marks, Pattern pattern, Duration within) {
        String[] found = new String[1];
        Awaitility.await("a line of " + service + " matching " + pattern).atMost(within).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(10)).until(() -> {
                    for (String instance : instancesOf(service)) {
                        long mark = marks.getOrDefault(instance, 0L);
                        byte[] all = Files.readAllBytes(log(instance));
                        String fresh = new String(all, (int) Math.min(mark, all.length),
                                (int) Math.max(0, all.length - mark), StandardCharsets.UTF_8);
                        if (fresh.lines().anyMatch(l -> pattern.matcher(l).find())) {
                            found[0] = instance;
                            return true;
                        }
                    }
                    return false;
                });
        return found[0];
    }

    /**
     * Freezes every instance of {@code service} (SIGSTOP), runs {@code paused}, and lets them go on (SIGCONT), also when
     * {@code paused} fails: no instance of it reads or consumes meanwhile, and none is restarted (supervision restarts
     * a service that exits, not one that is frozen). A pause longer than the consumers' session timeout (10 s) costs
     * each instance its group membership; on SIGCONT it rejoins and consumes what arrived meanwhile.
     */
    void whilePaused(String service, Runnable paused) throws Exception {
        long[] pids = instancesOf(service).stream().mapToLong(platform::pid).toArray();
        assertThat(pids).as("running instances of " + service).isNotEmpty();
        signal("STOP", pids);
        try {
            paused.run();
        } finally {
            signal("CONT", pids);
        }
    }

    /** @return the names of {@code service}'s running instances: {@code service}, then {@code service-2}, … */
    List<String> instancesOf(String service) {
        List<String> names = new java.util.ArrayList<>();
        for (String name : platform.session().services().keySet()) {
            if (io.stowage.cli.platform.ServiceLauncher.serviceOf(name).filter(service::equals).isPresent()) {
                names.add(name);
            }
        }
        return names;
    }

    private Path log(String name) {
        return work.resolve("logs").resolve(name + ".log");
    }

    /**
     * Sends SIGKILL to service instance {@code name} and waits until supervision has it running and healthy again (or,
     * for a provider-adapter instance, waiting as a standby while the other instance, which took over, is active).
     */
    void killAndAwaitRestart(String name) throws Exception {
        int before = supervised(name).restarts();
        long pid = platform.pid(name);
        signal("KILL", pid);
        Awaitility.await(name + " restarted by supervision").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    SupervisedService s = supervised(name);
                    return s.restarts() == before + 1 && SupervisedService.RUNNING.equals(s.state()) && s.pid() != pid
                            && healthy(name);
                });
        assertThat(supervised(name).lastExitCode()).isEqualTo(137);
    }

    private SupervisedService supervised(String name) {
        return platform.supervision().service(name).orElseThrow();
    }

    private boolean healthy(String name) {
        try {
            // this instance's own URL (Session.serviceUrl would answer with another instance that listens)
            return new HttpJson().get(java.net.URI.create(platform.session().services().get(name)).resolve("/q/health/ready"),
                    JsonNode.class).map(h -> h.path("status").asText().equals("UP")).orElse(false);
        } catch (RuntimeException notYet) {
            return io.stowage.cli.platform.ServiceHealth.standby(name, platform.pid(name), work.resolve("state"));
        }
    }

    /** Sends {@code signal} (e.g. STOP, CONT, KILL) to each process id; fails the test when kill(1) refuses. */
    static void signal(String signal, long... pids) throws Exception {
        for (long pid : pids) {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start();
            assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
        }
    }

    /**
     * @return the process ids of server {@code server} ({@code s3}, {@code kafka} or {@code postgres}) of this stack:
     *         S3Proxy and the Kafka broker are child JVMs of this one; PostgreSQL's postmaster is started by pg_ctl
     *         (so it is no child of this JVM) and is found by its {@code postmaster.pid}, with its backends
     */
    long[] serverPids(String server) throws IOException {
        if (server.equals("postgres")) {
            long postmaster = Long.parseLong(Files.readAllLines(work.resolve("stack/postgres/data/postmaster.pid")).get(0).strip());
            ProcessHandle handle = ProcessHandle.of(postmaster).orElseThrow();
            return java.util.stream.Stream.concat(java.util.stream.Stream.of(handle), handle.descendants())
                    .mapToLong(ProcessHandle::pid).toArray();
        }
        String marker = server.equals("kafka") ? "KafkaBrokerMain" : "s3proxy";
        long[] pids = ProcessHandle.current().children().filter(p -> commandLine(p.pid()).contains(marker))
                .mapToLong(ProcessHandle::pid).toArray();
        assertThat(pids).as("the " + server + " process of this stack").hasSize(1);
        return pids;
    }

    /** @return the whole command line from {@code /proc} (ProcessHandle.Info may cut a long class path short) */
    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }

    static Result cli(String... args) {
        return CliRun.run(args);
    }


    @Override
    public void close() {
        System.clearProperty("stowage.home");
        System.clearProperty("stowage.token");
        platform.close();
    }
}
