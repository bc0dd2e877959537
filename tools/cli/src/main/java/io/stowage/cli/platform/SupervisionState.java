package io.stowage.cli.platform;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The supervision part of the session state: each service's process, restarts and last restart, written by
 * {@code stowage up} to {@code $STOWAGE_HOME/services.json} (beside {@code session.json}) on every change and read by
 * {@code stowage status}.
 *
 * @param updated  when supervision wrote this
 * @param services one entry per service, in start order
 */
public record SupervisionState(Instant updated, List<SupervisedService> services) {
    private static final TypeReference<SupervisionState> TYPE = new TypeReference<>() {
    };

    /** @return the entry of service {@code name}, if supervision knows it */
    public Optional<SupervisedService> service(String name) {
        return services.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** Writes this state atomically (temporary file, then rename) so a reader never sees half of it. */
    public void writeTo(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), this);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * @return the state in {@code file}, or empty when there is none (a session started without supervision)
     * @throws CliException when the file exists but cannot be read
     */
    public static Optional<SupervisionState> readFrom(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(EventCodec.mapper().readValue(file.toFile(), TYPE));
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
