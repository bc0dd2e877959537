package io.stowage.uploader.persistence;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.PendingStep;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The uploader's durable memory for the {@code latest} pointers, under
 * {@code <stowage.uploader.state-dir>/pointers/}: one JSON file per {@link PendingStep} (a step uploaded
 * and waiting for verification) and one file per run holding the step its pointer names. Each file is
 * written to a temporary name, fsynced and renamed, so a crash leaves the old or the new state.
 * Methods are synchronized: the upload and the verification consumers share it.
 * <p>
 * This class is the only writer of its directory, so it keeps the last steps it read or wrote in memory (at most
 * {@value #CACHED_STEPS}) and answers {@link #find} from there: a step of 1,000 files is a few hundred KiB of JSON that
 * every verification result would otherwise read and parse again. Every change is still written and fsynced before
 * the call returns.
 */
@ApplicationScoped
public class PendingSteps {
    /** Steps kept in memory (least recently used forgotten first); each is the JSON file's content. */
    static final int CACHED_STEPS = 16;
    private final Path dir;
    private final Map<String, PendingStep> cached = new LinkedHashMap<>(CACHED_STEPS * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PendingStep> eldest) {
            return size() > CACHED_STEPS;
        }
    };

    @jakarta.inject.Inject
    PendingSteps(UploaderSettings settings) {
        this(settings.stateDir().resolve("pointers"));
    }

    /** @param dir directory holding the state files (created when missing) */
    public PendingSteps(Path dir) {
        this.dir = dir;
    }

    /** Records (or replaces) a step waiting for verification. */
    public synchronized void save(PendingStep step) {
        try {
            cached.remove(step.assetId());
            write(pendingFile(step.assetId()), EventCodec.mapper().writeValueAsBytes(step));
            cached.put(step.assetId(), step);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record pending step " + step.assetId() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records a step waiting for verification unless one with its asset id is recorded already (a redelivered event:
     * the results counted so far are kept).
     *
     * @return true when recorded now, false when a step with this asset id was already waiting
     */
    public synchronized boolean saveIfAbsent(PendingStep step) {
        if (find(step.assetId()).isPresent()) {
            return false;
        }
        save(step);
        return true;
    }

    /** @return the step waiting for verification with this asset id, if any */
    public synchronized Optional<PendingStep> find(String assetId) {
        PendingStep known = cached.get(assetId);
        if (known != null) {
            return Optional.of(known);
        }
        Path file = pendingFile(assetId);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            PendingStep step = EventCodec.mapper().readValue(Files.readAllBytes(file), PendingStep.class);
            cached.put(assetId, step);
            return Optional.of(step);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read pending step " + file + ": " + e.getMessage(), e);
        }
    }

    /** Forgets a step (its pointer was written, or a newer one was). */
    public synchronized void forget(String assetId) {
        try {
            cached.remove(assetId);
            Files.deleteIfExists(pendingFile(assetId));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot forget pending step " + assetId + ": " + e.getMessage(), e);
        }
    }

    /** @return the step the run's {@code latest} pointer names, or -1 when this uploader never wrote one */
    public synchronized long pointedStep(String experiment, String run) {
        Path file = pointerFile(experiment, run);
        try {
            return Files.exists(file) ? Long.parseLong(Files.readString(file).trim()) : -1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Records that the run's pointer now names {@code step}. */
    public synchronized void pointed(String experiment, String run, long step) {
        write(pointerFile(experiment, run), Long.toString(step).getBytes(StandardCharsets.UTF_8));
    }

    private Path pendingFile(String assetId) {
        return dir.resolve("step-" + hash(assetId) + ".json");
    }

    private Path pointerFile(String experiment, String run) {
        return dir.resolve("run-" + hash(experiment + "\n" + run) + ".step");
    }

    private void write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(dir);
            Path temp = dir.resolve(file.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(bytes));
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String hash(String text) {
        return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
    }
}
