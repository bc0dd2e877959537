package io.stowage.uploader.app;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PreconditionFailedException;
import io.stowage.store.TransientStoreException;
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
 * each write), which another uploader instance may have written. The PUT is conditional on the object that HEAD saw
 * ({@code If-Match} its ETag, or {@code If-None-Match: *} when there was none): when another instance wrote the pointer
 * in between, the store refuses the PUT and this instance HEADs again and decides anew (up to {@value #WRITE_ATTEMPTS}
 * times; then a {@link TransientStoreException}, which the consumer retries with its backoff and, when every attempt
 * fails, dead-letters), so a newer step written by another instance is never replaced by an older one. A refusal can
 * also follow this instance's own write, when a retried PUT's first attempt was stored but its answer lost: the next
 * HEAD then finds this step, which is written again over it. On a store that does not implement conditional writes
 * (HTTP 501, or the error code {@code NotImplemented}) the PUT is unconditional, with a window of one request; a store
 * that ignores the conditions leaves the same window. {@link #waitsFor} answers from memory and may be called on an
 * event loop; {@link #onVerified} blocks: call it from a worker thread.
 */
@ApplicationScoped
public class LatestPointerWork {
    private static final Logger LOG = Logger.getLogger(LatestPointerWork.class);
    /** The pointer object's user metadata naming its step, which every uploader instance checks before writing. */
    public static final String STEP_METADATA = "step";
    /** Conditional writes of one pointer refused because it changed in between, before the result fails (transient). */
    static final int WRITE_ATTEMPTS = 5;
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
     * @throws io.stowage.store.StoreException when the pointer cannot be written (the consumer retries the result with
     *         its backoff, then dead-letters it)
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
        for (int attempt = 1; ; attempt++) {
            Optional<ObjectHead> head = writers.forStore(UploadTask.PRIMARY)
                    .head(ObjectKeys.checkpointLatest(updated.experiment(), updated.run()));
            long stored = head.map(LatestPointerWork::stepOf).orElse(-1L);
            if (updated.step() < stored) {
                LOG.infof("event %s %s asset %s: the latest pointer of %s/%s in the store names step %d (written by "
                        + "another uploader instance): step %d does not replace it", result.meta().eventId(),
                        result.topic(), result.assetId(), updated.experiment(), updated.run(), stored, updated.step());
                steps.pointed(updated.experiment(), updated.run(), stored);
                steps.forget(updated.assetId());
                return Optional.empty();
            }
            Optional<LatestCheckpoint> pointer = updated.pointer(pointed, clock.instant());
            if (pointer.isEmpty()) {
                return pointer;
            }
            try {
                write(pointer.get(), head);
            } catch (PreconditionFailedException e) {
                // the pointer changed between this HEAD and this PUT (another instance, or this one's own retried
                // PUT whose first answer was lost): read it again and decide anew
                LOG.infof("event %s %s asset %s: the latest pointer of %s/%s changed while step %d was being written "
                        + "(attempt %d of %d): reading it again", result.meta().eventId(), result.topic(),
                        result.assetId(), updated.experiment(), updated.run(), updated.step(), attempt, WRITE_ATTEMPTS);
                if (attempt == WRITE_ATTEMPTS) {
                    throw new TransientStoreException("the latest pointer of " + updated.experiment() + "/"
                            + updated.run() + " changed under each of " + WRITE_ATTEMPTS + " conditional writes", e);
                }
                continue;
            }
            steps.pointed(updated.experiment(), updated.run(), updated.step());
            steps.forget(updated.assetId());
            LOG.infof("event %s %s asset %s: latest pointer of %s/%s now names step %d", result.meta().eventId(),
                    result.topic(), result.assetId(), updated.experiment(), updated.run(), updated.step());
            return pointer;
        }
    }

    /**
     * @return the step a pointer object names by its {@value #STEP_METADATA} metadata, or -1 when it has none (a
     *         pointer written before that metadata existed) or it is not a number
     */
    private static long stepOf(ObjectHead head) {
        String value = head.metadata().get(STEP_METADATA);
        if (value == null) {
            return -1L;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return -1L;
        }
    }

    /**
     * Writes the pointer only if the key still holds the object HEADed before (its ETag), or none when the HEAD found
     * none. A store that does not implement conditional writes (HTTP 501 or {@code NotImplemented}), or answered the
     * HEAD without an ETag, gets an unconditional PUT, with the window of one request that this leaves.
     */
    private void write(LatestCheckpoint pointer, Optional<ObjectHead> head) {
        String key = ObjectKeys.checkpointLatest(pointer.experiment(), pointer.run());
        try {
            byte[] json = EventCodec.mapper().writeValueAsBytes(pointer);
            Files.createDirectories(tempDir);
            Path file = Files.createTempFile(tempDir, "latest", ".json");
            try {
                Files.write(file, json);
                Map<String, String> metadata = Map.of("kind", "LATEST_POINTER", STEP_METADATA,
                        String.valueOf(pointer.step()));
                ObjectWriter primary = writers.forStore(UploadTask.PRIMARY);
                String sha256 = Sha256.of(json);
                String unconditional = head.isPresent() && head.get().etag() == null
                        ? "the store answered the HEAD of " + key + " without an ETag" : null;
                if (unconditional == null) {
                    try {
                        primary.putIfUnchanged(key, file, json.length, sha256, metadata,
                                head.map(ObjectHead::etag).orElse(null));
                        return;
                    } catch (UnsupportedOperationException e) {
                        unconditional = e.getMessage();
                    }
                }
                LOG.warnf("%s: writing the latest pointer %s without a condition", unconditional, key);
                primary.put(key, file, json.length, sha256, metadata);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the latest pointer " + key + ": " + e.getMessage(), e);
        }
    }
}
