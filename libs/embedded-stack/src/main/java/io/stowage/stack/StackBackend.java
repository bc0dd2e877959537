package io.stowage.stack;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Which servers {@link EmbeddedStack#shared()} starts, read from {@code -Dstowage.stack} (or {@code STOWAGE_STACK}):
 * {@code embedded} (default: child JVMs and zonky binaries, no Docker) or {@code containers} ({@link ContainerStack},
 * needs a Docker engine and the optional Testcontainers jars).
 */
enum StackBackend {
    EMBEDDED,
    CONTAINERS;

    /** System property naming the backend; wins over {@link #ENVIRONMENT}. */
    static final String PROPERTY = "stowage.stack";
    /** Environment variable naming the backend. */
    static final String ENVIRONMENT = "STOWAGE_STACK";
    private static final String TESTCONTAINERS_CLASS = "org.testcontainers.DockerClientFactory";

    /** @return the backend this JVM asks for, from the system property or else the environment */
    static StackBackend selected() {
        return select(System.getProperty(PROPERTY), System.getenv(ENVIRONMENT));
    }

    /**
     * @param property value of {@code -Dstowage.stack}, or null
     * @param env      value of {@code STOWAGE_STACK}, or null
     * @return the backend named by the property, else by the environment (trimmed, any case); {@link #EMBEDDED}
     *         when neither is set or both are blank
     * @throws IllegalArgumentException for any other value; the message names the allowed values
     */
    static StackBackend select(String property, String env) {
        String value = property != null && !property.isBlank() ? property : env;
        if (value == null || value.isBlank()) {
            return EMBEDDED;
        }
        for (StackBackend backend : values()) {
            if (backend.value().equalsIgnoreCase(value.trim())) {
                return backend;
            }
        }
        throw new IllegalArgumentException("unknown stowage stack '" + value + "' (from -D" + PROPERTY + " or "
                + ENVIRONMENT + "); allowed: " + Arrays.stream(values()).map(StackBackend::value)
                .collect(Collectors.joining(", ")) + " (default embedded)");
    }

    /** @return the name used in {@code -Dstowage.stack}, e.g. {@code containers} */
    String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Checks, before any container class is touched, that the containers backend can run here.
     *
     * @param testcontainersPresent whether the Testcontainers jars are on the class path ({@link #testcontainersPresent()})
     * @param dockerProblem         null when a Docker engine answers, else why none does
     * @throws IllegalStateException with one message saying what is missing
     */
    static void requireDocker(boolean testcontainersPresent, Supplier<String> dockerProblem) {
        if (!testcontainersPresent) {
            throw new IllegalStateException("-D" + PROPERTY + "=containers needs the Testcontainers jars"
                    + " (org.testcontainers:testcontainers-kafka, -minio, -postgresql) on the test class path;"
                    + " see libs/embedded-stack/README.md, \"Containers backend\"");
        }
        String problem = dockerProblem.get();
        if (problem != null) {
            throw new IllegalStateException("-D" + PROPERTY + "=containers needs a Docker engine; none is reachable: "
                    + problem + ". Start Docker, or leave out -D" + PROPERTY + " to use the embedded stack");
        }
    }

    /** @return whether {@code org.testcontainers.DockerClientFactory} can be loaded by this class's loader */
    static boolean testcontainersPresent() {
        try {
            Class.forName(TESTCONTAINERS_CLASS, false, StackBackend.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
