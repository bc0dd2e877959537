package io.stowage.stack;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server started as a child process (a JVM for Kafka and S3Proxy) whose standard output and error
 * are appended to one log file; produces its process handle, its log tail for error messages, and a
 * stop that waits for the process to end.
 */
final class ChildProcess implements AutoCloseable {
    private final String name;
    private final List<String> command;
    private final Path dir;
    private volatile Process process;
    private final Path log;

    private ChildProcess(String name, List<String> command, Path dir, Process process, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.dir = dir;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command} in {@code dir}, appending its output to {@code log}.
     *
     * @throws IOException when the process cannot be started
     */
    static ChildProcess start(String name, List<String> command, Path dir, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        return new ChildProcess(name, command, dir, builder(command, dir, log).start(), log);
    }

    private static ProcessBuilder builder(List<String> command, Path dir, Path log) {
        return new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    }

    /**
     * Starts the same command again, in the same directory, appending to the same log, when the process has ended
     * (a server killed under supervision); does nothing while it runs.
     *
     * @throws IOException when the process cannot be started
     */
    synchronized void relaunch() throws IOException {
        if (process.isAlive()) {
            return;
        }
        process = builder(command, dir, log).start();
    }

    /** @return the process as it runs now ({@link #relaunch} replaces it) */
    ProcessHandle handle() {
        return process.toHandle();
    }

    /** @return the exit code of the process as it runs now, or null while it runs */
    Integer exitCode() {
        Process current = process;
        return current.isAlive() ? null : current.exitValue();
    }

    /** @return the command line that runs {@code mainArgs} in a fresh JVM of the running Java, with {@code jvmArgs} first */
    static List<String> java(List<String> jvmArgs, List<String> mainArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(mainArgs);
        return command;
    }

    /** @return a TCP port on 127.0.0.1 that was free a moment ago, outside the ephemeral range ({@link LoopbackPorts}) */
    static int freePort() throws IOException {
        return LoopbackPorts.pick();
    }

    long pid() {
        return process.pid();
    }

    /**
     * Fails when the process has already ended.
     *
     * @throws IOException naming the exit code and the last lines of the log
     */
    void checkAlive() throws IOException {
        Process process = this.process;
        if (!process.isAlive()) {
            throw new IOException(name + " exited with code " + process.exitValue() + "; last lines of " + log
                    + ":\n" + tail(40));
        }
    }

    /** @return at most {@code lines} last lines of the log (reads at most the last 16 KiB) */
    String tail(int lines) {
        return tail(log, lines);
    }

    /** @return at most {@code lines} last lines of {@code log} (reads at most the last 16 KiB) */
    static String tail(Path log, int lines) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(0, file.length() - 16384);
            byte[] bytes = new byte[(int) (file.length() - start)];
            file.seek(start);
            file.readFully(bytes);
            String[] all = new String(bytes, StandardCharsets.UTF_8).split("\n");
            return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** Asks the process to stop (SIGTERM) without waiting, so that several servers stop at the same time. */
    void requestStop() {
        process.destroy();
    }

    /** Asks the process to stop (SIGTERM), waits up to 15 s, then kills it; idempotent. */
    @Override
    public void close() {
        Process process = this.process;
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
