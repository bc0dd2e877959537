package io.stowage.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A small {@code /bin/sh} watchdog, started before any server, that stops the stack's servers when this JVM
 * dies without stopping them (kill -9, a test JVM killed while the stack starts): it polls the JVM once a second,
 * then sends SIGTERM to every child JVM listed in {@code stack.pids} and SIGINT (fast shutdown) to the postmaster
 * named in {@code postgres/data/postmaster.pid}. The CLI uses it too, for the service JVMs it starts.
 */
public final class OrphanReaper implements AutoCloseable {
    static final String PID_FILE = "stack.pids";

    private final Process process;
    private final Path pidFile;

    private OrphanReaper(Process process, Path pidFile) {
        this.process = process;
        this.pidFile = pidFile;
    }

    /**
     * Starts watching this JVM on behalf of the stack in {@code dir}, with an empty {@code dir/stack.pids}.
     *
     * @throws IOException when the pid file cannot be written or {@code /bin/sh} cannot be started
     */
    public static OrphanReaper watch(Path dir) throws IOException {
        Path pidFile = dir.resolve(PID_FILE);
        Files.writeString(pidFile, "", StandardCharsets.US_ASCII);
        String script = "while kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null; do sleep 1; done; "
                + "kill -TERM $(cat " + PID_FILE + ") 2>/dev/null; "
                + "[ -f postgres/data/postmaster.pid ] && kill -INT $(head -n 1 postgres/data/postmaster.pid) 2>/dev/null; "
                + "exit 0";
        Process process = new ProcessBuilder(List.of("/bin/sh", "-c", script)).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return new OrphanReaper(process, pidFile);
    }

    /**
     * Adds a child process to those stopped if this JVM dies.
     *
     * @throws IOException when the pid file cannot be appended to
     */
    void track(ChildProcess child) throws IOException {
        track(child.pid());
    }

    /**
     * Adds the process {@code pid} to those sent SIGTERM if this JVM dies.
     *
     * @throws IOException when the pid file cannot be appended to
     */
    public synchronized void track(long pid) throws IOException {
        Files.writeString(pidFile, pid + "\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
    }

    /**
     * Replaces the processes sent SIGTERM if this JVM dies with exactly {@code pids} (e.g. the processes alive now,
     * after one was restarted), so that the pid of a process that has ended — which the system may give to another,
     * unrelated process — is never signalled. The file is replaced in one rename.
     *
     * @throws IOException when the pid file cannot be written
     */
    public synchronized void trackOnly(java.util.Collection<Long> pids) throws IOException {
        Path next = pidFile.resolveSibling(PID_FILE + ".next");
        StringBuilder lines = new StringBuilder();
        pids.forEach(pid -> lines.append(pid).append('\n'));
        Files.writeString(next, lines, StandardCharsets.US_ASCII);
        Files.move(next, pidFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Ends the watchdog (the servers were stopped normally); idempotent. */
    @Override
    public void close() {
        process.destroyForcibly();
    }
}
