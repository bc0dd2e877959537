package io.stowage.cli.platform;

import java.nio.file.Path;

/**
 * Where the command keeps its state: {@code $STOWAGE_HOME}, else {@code ~/.stowage}. Holds
 * {@code session.json}, {@code stack/} (the embedded servers' data), {@code logs/} and {@code staging/}.
 */
public record StowageHome(Path root) {

    /** @return the home from the {@code stowage.home} system property (in-process tests), the environment, or the default */
    public static StowageHome fromEnvironment() {
        String env = System.getProperty("stowage.home", System.getenv("STOWAGE_HOME"));
        Path root = env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".stowage");
        return new StowageHome(root.toAbsolutePath().normalize());
    }

    public Path session() {
        return root.resolve("session.json");
    }

    /** @return {@code services.json}: each service's process, restarts and last restart ({@link SupervisionState}) */
    public Path services() {
        return root.resolve("services.json");
    }

    public Path stack() {
        return root.resolve("stack");
    }

    public Path logs() {
        return root.resolve("logs");
    }

    public Path staging() {
        return root.resolve("staging");
    }
}
