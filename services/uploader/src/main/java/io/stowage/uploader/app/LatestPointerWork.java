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
 * been verified OK there (never before), unless the pointer already names a newer step: the newest step this
 * instance pointed to, or the one the pointer in the store names (its {@value #STEP_METADATA} metadata, HEADed before
 * each write), which another uploader instance may have written. Between that HEAD and the PUT another instance can
 * still write a newer step, which this one then replaces: a window of one request, not closed here (S3's conditional
 * writes are not available on every store Stowage supports). {@link #waitsFor} answers from memory and may be called
 * on an event loop; {@link #onVerified} blocks: call it from a worker thread.
 */
@ApplicationScoped
public class LatestPointerWork {
    private static final Logger LOG = Logger.getLogger(LatestPointerWork.class);
    /** The pointer object's user metadata naming its step, which every uploader instance checks before writing. */
    public static final String STEP_METADATA = "step";
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
     * @param assetId a checkpoint step's asset id, as {@code object.verified} records carry it as their key
     * @return true when this instance keeps that step pending (its results may complete it); false for any other asset
     */
    public boolean waitsFor(String assetId) {
        return steps.holds(assetId);
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
        long stored = storedStep(updated.experiment(), updated.run());
        if (updated.step() < stored) {
            LOG.infof("event %s %s asset %s: the latest pointer of %s/%s in the store names step %d (written by another "
                    + "uploader instance): step %d does not replace it", result.meta().eventId(), result.topic(),
                    result.assetId(), updated.experiment(), updated.run(), stored, updated.step());
            steps.pointed(updated.experiment(), updated.run(), stored);
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

    /**
     * @return the step the run's pointer in the primary store names by its {@value #STEP_METADATA} metadata, or -1 when
     *         there is no pointer or it has none (a pointer written before that metadata existed)
     * @throws io.stowage.store.StoreException when the store cannot be asked (the result is redelivered)
     */
    private long storedStep(String experiment, String run) {
        return writers.forStore(UploadTask.PRIMARY).head(ObjectKeys.checkpointLatest(experiment, run))
                .map(h -> h.metadata().get(STEP_METADATA)).map(v -> {
                    try {
                        return Long.parseLong(v.strip());
                    } catch (NumberFormatException e) {
                        return -1L;
                    }
                }).orElse(-1L);
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
                        Map.of("kind", "LATEST_POINTER", STEP_METADATA, String.valueOf(pointer.step())));
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the latest pointer " + key + ": " + e.getMessage(), e);
        }
    }
}
