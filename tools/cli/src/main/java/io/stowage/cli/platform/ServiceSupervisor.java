package io.stowage.cli.platform;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches the services' processes, and the stack's servers ({@link #watchServer}), and starts again, after a
 * {@link RestartBackoff}, any that exits without being asked to (killed, out of memory, crashed); says so in one line per event (to standard error and the supervision log) and
 * keeps {@code services.json} ({@link SupervisionState}) current for {@code stowage status}.
 */
final class ServiceSupervisor implements AutoCloseable {
    /** Starts a service again the same way and returns its process once it is ready; throws when it does not come up. */
    interface Relauncher {
        Process relaunch(String name) throws IOException;
    }

    /** The stack's servers (Kafka, S3Proxy, PostgreSQL), which are not all children of this JVM. */
    interface Servers {
        /** Starts server {@code name} again as it was first started and returns its process once it answers. */
        ProcessHandle restart(String name) throws IOException;

        /** @return the exit code of server {@code name}'s ended process, or null when it is not known */
        Integer exitCode(String name);
    }

    private static final class Watched {
        /** The service's process (null for a server, whose exit code comes from {@link Servers#exitCode}). */
        Process process;
        ProcessHandle handle;
        boolean server;
        Instant startedAt;
        int exitsInARow;
        int restarts;
        Instant lastRestart;
        Integer lastExitCode;
        boolean held;
    }

    private final Map<String, Watched> watched = new LinkedHashMap<>();
    private final Relauncher relauncher;
    private Servers servers;
    private final RestartBackoff backoff;
    private final Path stateFile;
    private final Consumer<String> say;
    private final Clock clock;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(ServiceLauncher.SERVICES.size() + 3, r -> {
        Thread thread = new Thread(r, "stowage-supervisor");
        thread.setDaemon(true);
        return thread;
    });
    private boolean closed;

    /**
     * @param stateFile where to keep {@link SupervisionState} ({@code $STOWAGE_HOME/services.json})
     * @param say       receives each line about an exit or a restart
     */
    ServiceSupervisor(Relauncher relauncher, RestartBackoff backoff, Path stateFile, Consumer<String> say, Clock clock) {
        this.relauncher = relauncher;
        this.backoff = backoff;
        this.stateFile = stateFile;
        this.say = say;
        this.clock = clock;
    }

    /** Starts watching service {@code name}, now running as {@code process}. */
    synchronized void watch(String name, Process process) {
        Watched w = watched.computeIfAbsent(name, n -> new Watched());
        w.process = process;
        watch(name, w, process.toHandle());
    }

    /**
     * Starts watching server {@code name} of the stack, now running as {@code handle}; when it ends it is started
     * again through {@code servers} (after the same backoff as a service).
     */
    synchronized void watchServer(String name, ProcessHandle handle, Servers servers) {
        this.servers = servers;
        Watched w = watched.computeIfAbsent(name, n -> new Watched());
        w.server = true;
        w.process = null;
        watch(name, w, handle);
    }

    private void watch(String name, Watched w, ProcessHandle handle) {
        w.handle = handle;
        w.startedAt = clock.instant();
        w.held = false;
        handle.onExit().thenAccept(this::exited).exceptionally(e -> {
            say.accept("==> supervision could not handle the exit of " + name + ": " + e); // never silent
            return null;
        });
        save();
    }

    /** Stops restarting service {@code name} until {@link #watch} is called again (a deliberate stop and start). */
    synchronized void hold(String name) {
        Watched w = watched.get(name);
        if (w != null) {
            w.held = true;
        }
    }

    /** @return the current state of every watched service, in the order they were first watched */
    synchronized SupervisionState state() {
        List<SupervisedService> services = new ArrayList<>();
        watched.forEach((name, w) -> services.add(new SupervisedService(name,
                w.handle == null ? null : w.handle.pid(),
                w.handle == null ? SupervisedService.RESTARTING : SupervisedService.RUNNING,
                w.restarts, w.lastRestart, w.lastExitCode)));
        return new SupervisionState(clock.instant(), services);
    }

    private synchronized void exited(ProcessHandle handle) {
        String name = nameOf(handle);
        if (closed || name == null) {
            return;
        }
        Watched w = watched.get(name);
        if (w.held) {
            return;
        }
        int series = backoff.series(Duration.between(w.startedAt, clock.instant()), w.exitsInARow);
        Duration delay = backoff.delay(series);
        w.exitsInARow = series + 1;
        w.lastExitCode = w.server ? servers.exitCode(name) : Integer.valueOf(w.process.exitValue());
        w.process = null;
        w.handle = null;
        say.accept("==> " + kind(w) + " " + name + " (pid " + handle.pid() + ") exited"
                + (w.lastExitCode == null ? "" : " with code " + w.lastExitCode)
                + "; restarting it in " + seconds(delay) + " (restart " + (w.restarts + 1) + ")");
        save();
        schedule(name, delay);
    }

    private String nameOf(ProcessHandle handle) {
        return watched.entrySet().stream().filter(e -> handle.equals(e.getValue().handle)).map(Map.Entry::getKey)
                .findFirst().orElse(null);
    }

    private static String kind(Watched w) {
        return w.server ? "server" : "service";
    }

    private void schedule(String name, Duration delay) {
        scheduler.schedule(() -> restart(name), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void restart(String name) {
        synchronized (this) {
            if (closed || watched.get(name).held) {
                return;
            }
            Watched w = watched.get(name);
            w.restarts++;
            w.lastRestart = clock.instant();
            save();
        }
        boolean server;
        synchronized (this) {
            server = watched.get(name).server;
        }
        try {
            if (server) {
                ProcessHandle handle = servers.restart(name);
                synchronized (this) {
                    if (!closed) {
                        watchServer(name, handle, servers);
                        say.accept("==> server " + name + " restarted (pid " + handle.pid() + ") and answering");
                    }
                }
                return;
            }
            Process process = relauncher.relaunch(name);
            synchronized (this) {
                if (!closed) {
                    watch(name, process);
                    say.accept("==> service " + name + " restarted (pid " + process.pid() + ") and ready");
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                Watched w = watched.get(name);
                Duration delay = backoff.delay(w.exitsInARow);
                w.exitsInARow++;
                say.accept("==> " + kind(w) + " " + name + " did not come back (" + e.getMessage() + "); trying again in "
                        + seconds(delay) + " (restart " + (w.restarts + 1) + ")");
                save();
                schedule(name, delay);
            }
        }
    }

    private void save() {
        try {
            state().writeTo(stateFile);
        } catch (IOException e) {
            say.accept("==> cannot write " + stateFile + ": " + e.getMessage());
        }
    }

    private static String seconds(Duration delay) {
        return delay.toMillis() % 1000 == 0 ? delay.toSeconds() + " s" : delay.toMillis() + " ms";
    }

    /** Stops watching and restarting; a restart under way is abandoned (the caller stops the processes). Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
