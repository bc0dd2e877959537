package io.stowage.cli.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The CLI's class archive (a dynamic AppCDS archive of JDK 17): the classes a command loads (picocli, Jackson, the Kafka
 * client, the HTTP and S3 clients), stored pre-parsed so that each later {@code stowage} command starts faster and
 * with less CPU (measured here: a small {@code checkpoint publish} 2.4 → 1.7 s, 2.5 → 1.6 CPU s; docs/benchmarks/end-to-end.md).
 *
 * <p>{@code stowage up}, once the session is written, writes it in the background for the CLI jar it runs from, when
 * there is none yet for that jar: a child JVM ({@code -XX:ArchiveClassesAtExit}) runs the hidden
 * {@code class-archive-training} command against the session (read-only calls only), the archive is checked by starting
 * a JVM on it with {@code -Xshare:on}, and only then renamed into place, so that no command ever sees a partial archive
 * (a truncated archive crashes the JVM that maps it), with its size recorded beside it ({@link #sizeFileOf}). Archives
 * of other jars are removed. The {@code ./stowage} script uses the archive when it exists at the recorded size, and
 * has the JVM verify its checksum; a JVM that cannot use it (another JDK, a damaged archive) starts without it and
 * says nothing.
 *
 * <p>Where: {@code $STOWAGE_HOME/class-archive/stowage-cli-<jar mtime, epoch seconds>-<jar bytes>.jsa}, the name the
 * script computes with {@code stat -c %Y-%s}.
 */
public final class CliClassArchive {
    /** The hidden command the training JVM runs. */
    public static final String TRAINING_COMMAND = "class-archive-training";

    private CliClassArchive() {
    }

    /**
     * @param home the Stowage home
     * @param jar  the CLI jar
     * @return the archive's path for exactly this jar (by modification time in seconds and size)
     * @throws IOException when the jar cannot be read
     */
    public static Path archiveFor(StowageHome home, Path jar) throws IOException {
        long mtime = Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS);
        return home.root().resolve("class-archive").resolve("stowage-cli-" + mtime + "-" + Files.size(jar) + ".jsa");
    }

    /**
     * @return the CLI jar this JVM runs, as the {@code ./stowage} script names it
     *         ({@code <stowage.repo>/tools/cli/target/stowage-cli.jar}); empty when the CLI does not run from that jar
     *         (in-process tests)
     */
    public static Optional<Path> runningJar() {
        String repo = System.getProperty("stowage.repo");
        String classPath = System.getProperty("java.class.path", "");
        if (repo == null || !classPath.endsWith("stowage-cli.jar")) {
            return Optional.empty();
        }
        Path jar = Path.of(repo, "tools", "cli", "target", "stowage-cli.jar");
        return Files.isRegularFile(jar) ? Optional.of(jar) : Optional.empty();
    }

    /**
     * Writes the archive in a background daemon thread when this JVM runs from the CLI jar and the archive for that jar
     * does not exist yet; does nothing otherwise. Never fails the caller: a training that fails leaves no archive.
     *
     * @param home the Stowage home whose session the training reads
     * @return the thread doing it, or empty when there is nothing to do
     */
    public static Optional<Thread> writeInBackground(StowageHome home) {
        Optional<Path> jar = runningJar();
        if (jar.isEmpty()) {
            return Optional.empty();
        }
        Path archive;
        try {
            archive = archiveFor(home, jar.get());
        } catch (IOException e) {
            return Optional.empty();
        }
        if (Files.isRegularFile(archive)) {
            return Optional.empty();
        }
        Thread thread = new Thread(() -> write(home, jar.get(), archive), "stowage-class-archive");
        thread.setDaemon(true);
        thread.start();
        return Optional.of(thread);
    }

    private static void write(StowageHome home, Path jar, Path archive) {
        Path partial = archive.resolveSibling(archive.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(archive.getParent());
            removeAbandonedPartials(archive.getParent());
            String java = ProcessHandle.current().info().command().orElse("java");
            Path log = archive.resolveSibling("training.log");
            Files.deleteIfExists(log);
            int trained = run(List.of(java, "-XX:ArchiveClassesAtExit=" + partial, "-Dstowage.repo="
                    + System.getProperty("stowage.repo"), "-jar", jar.toString(), TRAINING_COMMAND), home, log, 180);
            if (trained != 0 || !Files.isRegularFile(partial)) {
                return;
            }
            // a JVM that must map the archive (-Xshare:on) fails rather than run without it: the archive is usable
            int checked = run(List.of(java, "-XX:SharedArchiveFile=" + partial, "-Xshare:on", "-Dstowage.repo="
                    + System.getProperty("stowage.repo"), "-jar", jar.toString(), "--version"), home, log, 60);
            if (checked != 0) {
                return;
            }
            // the size first, then the archive: the script uses an archive only at the size recorded beside it
            Path bytes = sizeFileOf(archive);
            Path bytesPartial = bytes.resolveSibling(bytes.getFileName() + ".partial-" + ProcessHandle.current().pid());
            Files.writeString(bytesPartial, String.valueOf(Files.size(partial)));
            Files.move(bytesPartial, bytes, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
            removeOthers(archive);
        } catch (IOException | RuntimeException e) {
            // no archive: every command still runs, only without the faster start
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // a stale partial file is never used (the script looks for the exact archive name)
            }
        }
    }

    private static int run(List<String> command, StowageHome home, Path log, int seconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().put("STOWAGE_HOME", home.root().toString());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return -1;
        }
        return process.exitValue();
    }

    /** Removes the partial archives of {@code stowage up}s that ended before renaming theirs (by the pid in the name). */
    private static void removeAbandonedPartials(Path dir) throws IOException {
        java.util.regex.Pattern partial = java.util.regex.Pattern.compile("\\.partial-(\\d+)$");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                java.util.regex.Matcher m = partial.matcher(f.getFileName().toString());
                if (m.find() && !ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false)) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static void removeOthers(Path archive) throws IOException {
        try (Stream<Path> files = Files.list(archive.getParent())) {
            for (Path f : files.filter(f -> (f.getFileName().toString().endsWith(".jsa")
                    || f.getFileName().toString().endsWith(".jsa.bytes"))
                    && !f.equals(archive) && !f.equals(sizeFileOf(archive))).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    /**
     * @return the file beside {@code archive} holding its size in bytes as decimal text ({@code <archive>.bytes}),
     *         which the {@code ./stowage} script compares with the archive's size before passing it
     */
    public static Path sizeFileOf(Path archive) {
        return archive.resolveSibling(archive.getFileName() + ".bytes");
    }
}
