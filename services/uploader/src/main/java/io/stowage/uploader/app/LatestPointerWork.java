package io.stowage.uploader.app;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.PendingStep;
import io.stowage.uploader.domain.UploadTask;
import io.stowage.uploader.persistence.PendingSteps;
import io.stowage.uploader.storage.ObjectWriters;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Consumes {@code object.verified} results and produces the run's {@code latest} pointer
 * ({@link ObjectKeys#checkpointLatest}) in the primary store once every file of a pending step has
 * been verified OK there (never before), unless the pointer already names a newer step. Blocking:
 * call it from a worker thread.
 */
@ApplicationScoped
public class LatestPointerWork {
    private static final Logger LOG = Logger.getLogger(LatestPointerWork.class);
    private final PendingSteps steps;
    private final ObjectWriters writers;
    private final Path tempDir;
    private final Clock clock = Clock.systemUTC();

    LatestPointerWork(PendingSteps steps, ObjectWriters writers, UploaderSettings settings) {
        this.steps = steps;
        this.writers = writers;
        this.tempDir = settings.stateDir().resolve("tmp");
    }

    /**
     * @return the pointer written because of this result, if any
     * @throws io.stowage.store.StoreException when the pointer cannot be written (the result is redelivered)
     */
    public Optional<LatestCheckpoint> onVerified(ObjectVerified result) {
        if (!steps.apply(result).orElse(false)) {
            return Optional.empty();
        }
        PendingStep updated = steps.find(result.assetId()).orElseThrow(); // once per step: the pointer lists its files
        long pointed = steps.pointedStep(updated.experiment(), updated.run());
        if (updated.step() < pointed) {
            steps.forget(updated.assetId());
            return Optional.empty();
        }
        Optional<LatestCheckpoint> pointer = updated.pointer(pointed, clock.instant());
        if (pointer.isPresent()) {
            write(pointer.get());
            steps.pointed(updated.experiment(), updated.run(), updated.step());
            steps.forget(updated.assetId());
            LOG.infof("event %s %s asset %s: latest pointer of %s/%s now names step %d", result.meta().eventId(),
                    result.topic(), result.assetId(), updated.experiment(), updated.run(), updated.step());
        }
        return pointer;
    }

    private void write(LatestCheckpoint pointer) {
        String key = ObjectKeys.checkpointLatest(pointer.experiment(), pointer.run());
        try {
            byte[] json = EventCodec.mapper().writeValueAsBytes(pointer);
            Files.createDirectories(tempDir);
            Path file = Files.createTempFile(tempDir, "latest", ".json");
            try {
                Files.write(file, json);
                writers.forStore(UploadTask.PRIMARY).put(key, file, json.length, Sha256.of(json),
                        Map.of("kind", "LATEST_POINTER"));
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the latest pointer " + key + ": " + e.getMessage(), e);
        }
    }
}
