package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.ResourceUnits;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code stowage down [--timeout 2m] [--dry-run] [--json]}: stops the {@code stowage up} of this
 * {@code $STOWAGE_HOME} the way Ctrl-C does — SIGTERM to the process named by {@code session.json}'s
 * {@code ownerPid}, whose shutdown hook stops the six services and the servers and removes {@code session.json} — and
 * waits until it has ended. Nothing running (no session, or one left by an {@code up} that has ended) is not an error:
 * exit 0, saying so. The process is signalled only when its command line is a {@code stowage up} (a pid reused by
 * another program is refused, exit 1, naming the file to remove). Exit 1 when it is still running after the timeout.
 */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stop the running 'stowage up' of this STOWAGE_HOME (as Ctrl-C does) and wait until it has ended.")
public final class DownCommand implements Callable<Integer> {

    @Option(names = "--timeout", defaultValue = "2m",
            description = "How long to wait for the services and servers to stop (90s, 2m; default ${DEFAULT-VALUE}).")
    String timeoutText;

    @Option(names = "--dry-run", description = "Say what would be stopped; signal nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print {\"home\",\"running\",\"pid\",\"stopped\",\"seconds\",\"dryRun\"} as one line of JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        Duration timeout = ResourceUnits.duration(timeoutText);
        if (timeout.isZero() || timeout.isNegative()) {
            throw new CliException(CliException.USAGE, "--timeout must be above zero, not " + timeoutText);
        }
        StowageHome home = StowageHome.fromEnvironment();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("home", home.root().toString());
        out.put("dryRun", dryRun);
        Optional<Session> session = sessionOf(home);
        Optional<ProcessHandle> owner = session.flatMap(s -> ProcessHandle.of(s.ownerPid())).filter(ProcessHandle::isAlive);
        if (owner.isEmpty()) {
            out.put("running", false);
            out.put("stopped", false);
            report(out, "Stowage is not running for " + home.root() + (session.isPresent()
                    ? " (" + home.session() + " is left by an 'up' that has ended; the next 'stowage up' replaces it)"
                    : "") + ": nothing to stop");
            return 0;
        }
        ProcessHandle up = owner.get();
        requireStowageUp(up, home);
        out.put("running", true);
        out.put("pid", up.pid());
        if (dryRun) {
            out.put("stopped", false);
            report(out, "would stop 'stowage up' (pid " + up.pid() + "): the services "
                    + String.join(", ", session.get().services().keySet()) + " and Kafka, the S3 server and PostgreSQL");
            return 0;
        }
        if (!json) {
            System.err.println("==> stopping 'stowage up' (pid " + up.pid() + "): services, then servers");
        }
        long start = System.nanoTime();
        up.destroy();
        boolean ended = waitFor(up, timeout);
        double seconds = (System.nanoTime() - start) / 1e9;
        out.put("stopped", ended);
        out.put("seconds", Math.round(seconds * 10) / 10.0);
        if (!ended) {
            if (json) {
                JsonOut.print(out);
            }
            throw new CliException(CliException.FAILED, "'stowage up' (pid " + up.pid() + ") is still running after "
                    + timeoutText + "; see " + home.root().resolve("logs") + ", or 'kill -9 " + up.pid()
                    + "' (its watchdogs then stop the servers)");
        }
        report(out, String.format(java.util.Locale.ROOT, "stopped in %.1f s", seconds));
        return 0;
    }

    private void report(Map<String, Object> out, String line) {
        if (json) {
            JsonOut.print(out);
        } else {
            System.out.println(line);
        }
    }

    /** The session as written, alive or not; empty when there is no session file. */
    private static Optional<Session> sessionOf(StowageHome home) {
        if (!Files.isRegularFile(home.session())) {
            return Optional.empty();
        }
        try {
            return Optional.of(EventCodec.mapper().readValue(home.session().toFile(), Session.class));
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + home.session() + ": " + e.getMessage(), e);
        }
    }

    /** Refuses to signal a process whose arguments are unreadable or are not those of a {@code stowage up}. */
    private static void requireStowageUp(ProcessHandle process, StowageHome home) {
        List<String> args = arguments(process);
        boolean stowage = args.stream().anyMatch(a -> a.endsWith("stowage-cli.jar") || a.equals("io.stowage.cli.StowageCli"));
        if (!stowage || !args.contains("up")) {
            throw new CliException(CliException.FAILED, "pid " + process.pid() + " named by " + home.session()
                    + " is not a 'stowage up' (its command line " + (args.isEmpty() ? "cannot be read" : "differs")
                    + "); nothing signalled; remove " + home.session() + " if no 'stowage up' runs");
        }
    }

    /**
     * The process's command line, program first: {@code /proc/PID/cmdline} where there is one (the JDK's
     * {@code ProcessHandle.Info} comes back without arguments for a long command line, such as a JVM's class path),
     * else {@code ProcessHandle.Info}; empty when neither can be read.
     */
    private static List<String> arguments(ProcessHandle process) {
        java.nio.file.Path cmdline = java.nio.file.Path.of("/proc", Long.toString(process.pid()), "cmdline");
        try {
            String text = Files.readString(cmdline, java.nio.charset.StandardCharsets.UTF_8);
            if (!text.isEmpty()) {
                return List.of(text.split("\0"));
            }
        } catch (IOException | RuntimeException unreadable) {
            // not Linux, or not ours to read: ask the JDK
        }
        ProcessHandle.Info info = process.info();
        List<String> args = new java.util.ArrayList<>();
        info.command().ifPresent(args::add);
        info.arguments().ifPresent(a -> args.addAll(List.of(a)));
        return args;
    }

    private static boolean waitFor(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }
}
