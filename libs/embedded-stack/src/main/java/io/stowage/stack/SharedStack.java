package io.stowage.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The one stack of this JVM: consumes the first request from any class loader and produces the same
 * {@link StackEndpoints} for all later ones. The JVM-wide memory is a system property naming the
 * endpoints file, guarded by an interned string (the same object in every class loader). The stack started is
 * the {@link StackBackend} chosen with {@code -Dstowage.stack}: {@link EmbeddedStack} by default,
 * {@link ContainerStack} for {@code containers}.
 */
final class SharedStack {
    /** System property: the {@code stack.json} of the stack this JVM started. */
    static final String STARTED_FILE = "io.stowage.stack.shared.file";
    private static final String LOCK = "io.stowage.stack.SharedStack.lock".intern();

    private SharedStack() {
    }

    static StackEndpoints endpoints() {
        synchronized (LOCK) {
            try {
                return resolve(System.getProperty("stowage.stack.file", System.getenv("STOWAGE_STACK_FILE")),
                        System.getProperty(STARTED_FILE), StackBackend.selected());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the shared stowage stack: " + e.getMessage(), e);
            }
        }
    }

    /**
     * @param externalFile the {@code stack.json} of a stack run by someone else, or null
     * @param startedFile  the {@code stack.json} of the stack this JVM started earlier, or null
     * @param backend      what to start when neither file is given
     * @return the endpoints from the first file given; a new stack's when neither is
     * @throws IllegalStateException when {@code backend} is {@link StackBackend#CONTAINERS} and Testcontainers or
     *                               a Docker engine is missing (checked before anything starts)
     */
    static StackEndpoints resolve(String externalFile, String startedFile, StackBackend backend) throws IOException {
        if (externalFile != null && !externalFile.isBlank()) {
            return StackEndpoints.readFrom(Path.of(externalFile));
        }
        if (startedFile != null) {
            return StackEndpoints.readFrom(Path.of(startedFile));
        }
        if (backend == StackBackend.CONTAINERS) {
            // a lambda, not a method reference: ContainerStack (which needs the optional Testcontainers jars) is
            // loaded only once they are known to be present
            StackBackend.requireDocker(StackBackend.testcontainersPresent(), () -> ContainerStack.dockerProblem());
        }
        return startShared(backend);
    }

    private static StackEndpoints startShared(StackBackend backend) throws IOException {
        Path dir = Files.createTempDirectory("stowage-stack-");
        AutoCloseable stack;
        StackEndpoints endpoints;
        if (backend == StackBackend.CONTAINERS) {
            ContainerStack containers = ContainerStack.start();
            stack = containers;
            endpoints = containers.endpoints();
        } else {
            EmbeddedStack embedded = EmbeddedStack.start(dir);
            stack = embedded;
            endpoints = embedded.endpoints();
        }
        Path file = dir.resolve("stack.json");
        endpoints.writeTo(file);
        System.setProperty(STARTED_FILE, file.toString());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stack.close();
            } catch (Exception e) {
                // both backends' close() never throw
            }
            if (!Boolean.getBoolean("stowage.stack.keep")) {
                deleteTree(dir);
            }
        }, "stowage-shared-stack-shutdown"));
        return endpoints;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort at JVM exit: a temporary directory stays behind
        }
    }
}
