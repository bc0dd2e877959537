package io.stowage.stack;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster directory as {@code initdb} left it, kept once per machine and binaries version
 * under {@code stowage.stack.cache-dir} (default {@code ~/.cache/stowage-stack}); consumes a freshly
 * initialised data directory on the first start and produces copies of it for later starts, which
 * saves {@code initdb} (1.5 s of CPU, far more on a loaded machine).
 */
final class PostgresTemplate {
    /** Files of a running or locked cluster that a copy must not carry. */
    private static final Set<String> SKIPPED = Set.of("epg-lock", "postmaster.pid", "postmaster.opts");

    private PostgresTemplate() {
    }

    private static Path location() {
        String cache = System.getProperty("stowage.stack.cache-dir",
                Path.of(System.getProperty("user.home"), ".cache", "stowage-stack").toString());
        return Path.of(cache, "postgres-" + StackVersions.get("postgres.binaries.version", "unknown") + "-cluster");
    }

    /**
     * Copies the template into {@code dataDir} when there is one.
     *
     * @return whether {@code dataDir} now holds a cluster
     */
    static boolean copyInto(Path dataDir) {
        Path template = location();
        if (!Files.isRegularFile(template.resolve("PG_VERSION"))) {
            return false;
        }
        try {
            deleteTree(dataDir);
            copyTree(template, dataDir);
            return true;
        } catch (IOException e) {
            deleteTree(dataDir);
            return false;
        }
    }

    /** Keeps a copy of a freshly initialised, not yet started cluster as the template; best effort, first writer wins. */
    static void saveFrom(Path dataDir) {
        Path template = location();
        if (Files.exists(template)) {
            return;
        }
        Path staging = template.resolveSibling(template.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(template.getParent());
            copyTree(dataDir, staging);
            Files.move(staging, template, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            // another JVM saved it first
        } catch (IOException e) {
            // no cache this time: the next start runs initdb again
        } finally {
            deleteTree(staging);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                if (SKIPPED.contains(source.getFileName().toString())) {
                    continue;
                }
                Path target = to.resolve(from.relativize(source).toString());
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }
}
