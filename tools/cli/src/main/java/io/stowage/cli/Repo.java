package io.stowage.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the Stowage checkout: {@code -Dstowage.repo}, else the nearest ancestor of the working directory with {@code services/ledger}. */
public final class Repo {
    private Repo() {
    }

    /**
     * @return the absolute checkout root
     * @throws CliException when none is found
     */
    public static Path root() {
        String configured = System.getProperty("stowage.repo");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("services/ledger")) && Files.isDirectory(dir.resolve("examples/samples"))) {
                return dir;
            }
        }
        throw new CliException(CliException.FAILED, "cannot find the Stowage checkout: run from inside it or set -Dstowage.repo");
    }
}
