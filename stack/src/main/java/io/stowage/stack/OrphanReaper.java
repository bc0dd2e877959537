package io.stowage.stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * A small {@code /bin/sh} watchdog that consumes the ids of the stack's server processes and stops them
 * when this JVM dies without running its shutdown hooks (kill -9, a crashed test JVM): it polls the JVM
 * once a second, then sends SIGTERM to the child JVMs and SIGINT (fast shutdown) to the postmaster.
 */
final class OrphanReaper implements AutoCloseable {
    private final Process process;

    private OrphanReaper(Process process) {
        this.process = process;
    }

    /**
     * @param terminate process ids to SIGTERM; {@code postmaster} the id to SIGINT, or -1
     * @throws IOException when {@code /bin/sh} cannot be started
     */
    static OrphanReaper watch(Path dir, long postmaster, long... terminate) throws IOException {
        long self = ProcessHandle.current().pid();
        String targets = LongStream.of(terminate).mapToObj(Long::toString).collect(Collectors.joining(" "));
        String script = "while kill -0 " + self + " 2>/dev/null; do sleep 1; done; "
                + "kill -TERM " + targets + " 2>/dev/null; "
                + (postmaster > 0 ? "kill -INT " + postmaster + " 2>/dev/null; " : "") + "exit 0";
        Process process = new ProcessBuilder(List.of("/bin/sh", "-c", script)).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return new OrphanReaper(process);
    }

    /** Ends the watchdog (the stack was stopped normally); idempotent. */
    @Override
    public void close() {
        process.destroyForcibly();
    }
}
