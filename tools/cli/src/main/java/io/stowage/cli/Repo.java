package io.stowage.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the Stowage checkout whose packaged services {@code stowage up} and {@code stowage demo} start: {@code
 * -Dstowage.repo}, else the nearest ancestor of the working directory that is a checkout, else the checkout the running
 * command was packaged in (its jar at {@code <checkout>/tools/cli/target/}).
 */
public final class Repo {
    private Repo() {
    }

    /**
     * @return the absolute checkout root
     * @throws CliException (exit 1) when none is found
     */
    public static Path root() {
        String configured = System.getProperty("stowage.repo");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (isCheckout(dir)) {
                return dir;
            }
        }
        Path packagedIn = packagedIn();
        if (packagedIn != null) {
            return packagedIn;
        }
        throw new CliException(CliException.FAILED, "cannot find the Stowage checkout: run from inside it or set -Dstowage.repo");
    }

    /** @return the checkout that holds the jar or class directory this class was loaded from; null when it is not in one */
    static Path packagedIn() {
        try {
            var source = Repo.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return null;
            }
            for (Path dir = Path.of(source.getLocation().toURI()).toAbsolutePath(); dir != null; dir = dir.getParent()) {
                if (isCheckout(dir)) {
                    return dir;
                }
            }
        } catch (URISyntaxException | SecurityException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null;
        }
        return null;
    }

    private static boolean isCheckout(Path dir) {
        return Files.isDirectory(dir.resolve("services/ledger")) && Files.isDirectory(dir.resolve("examples/samples"));
    }
}
