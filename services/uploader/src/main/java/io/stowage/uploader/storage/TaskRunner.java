package io.stowage.uploader.storage;

import io.stowage.events.ObjectKind;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PermanentStoreException;
import io.stowage.store.PreconditionFailedException;
import io.stowage.store.SourceChangedException;
import io.stowage.store.TransientStoreException;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadTask;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * Carries out one {@link UploadTask} against its store: skips it when the same SHA-256 is already at
 * the key (content idempotency), otherwise puts the file, except over a dataset or model manifest ({@code manifest.json}
 * of a sealed revision) that already holds other content or no SHA-256 metadata: that is a permanent failure, the
 * stored object stays as it is. A manifest is put create-only ({@code If-None-Match: *}) where the store supports it,
 * so a manifest stored by another writer between the HEAD and the PUT is never replaced either. Every failure becomes an
 * {@link UploadOutcome.Failed}, never an exception. Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class TaskRunner {
    private final ObjectWriters writers;

    TaskRunner(ObjectWriters writers) {
        this.writers = writers;
    }

    /** @return stored (sent or skipped) or failed, with a one-line reason naming the file */
    public UploadOutcome run(UploadTask task) {
        return run(task, writers.forStore(task.store()));
    }

    /** As {@link #run(UploadTask)} with the writer of the task's store given. */
    static UploadOutcome run(UploadTask task, ObjectWriter writer) {
        String file = task.localPath().toString();
        try {
            Optional<ObjectHead> existing = writer.head(task.key());
            if (existing.isPresent() && task.sha256().equals(existing.get().sha256())
                    && existing.get().bytes() == task.bytes()) {
                return new UploadOutcome.Stored(existing.get().etag(), true);
            }
            if (existing.isPresent() && immutable(task.kind())) {
                return refused(task, existing.get());
            }
            Map<String, String> metadata = Map.of("kind", task.kind().name());
            if (immutable(task.kind())) {
                Optional<UploadOutcome> created = createOnly(task, writer, metadata);
                if (created.isPresent()) {
                    return created.get();
                }
            }
            String etag = writer.put(task.key(), task.localPath(), task.bytes(), task.sha256(), metadata).etag();
            return new UploadOutcome.Stored(etag, false);
        } catch (SourceChangedException e) {
            return new UploadOutcome.Failed(file + " changed since publish: expected " + e.expectedBytes()
                    + " bytes sha256 " + e.expectedSha256() + ", found " + e.actualBytes() + " bytes sha256 "
                    + e.actualSha256(), true);
        } catch (UncheckedIOException e) {
            return new UploadOutcome.Failed(file + " cannot be read: " + e.getCause().getMessage(), true);
        } catch (TransientStoreException e) {
            return new UploadOutcome.Failed(task.store() + " store unreachable for " + file + ": "
                    + e.getMessage(), false);
        } catch (PermanentStoreException e) {
            return new UploadOutcome.Failed(task.store() + " store refused " + file + ": " + e.getMessage(), true);
        }
    }

    /** @return whether an object of this kind, once stored at its key, is never replaced (a sealed revision's manifest) */
    private static boolean immutable(ObjectKind kind) {
        return kind == ObjectKind.DATASET_MANIFEST || kind == ObjectKind.MODEL_MANIFEST;
    }

    /**
     * Stores an immutable object only if its key is still empty ({@code If-None-Match: *}), so that of two writers that
     * both found the key empty (two instances, two runs sealing the same revision) the second cannot replace the
     * first's object: it is refused, and then finds the first's object, which is its own content (stored) or other
     * content (a permanent failure, the stored object staying as it is).
     *
     * @return the outcome; empty when the store cannot write conditionally (HTTP 501 or {@code NotImplemented}) or the
     *         file is too large for one PUT: the caller then puts it unconditionally, the HEAD before being the only
     *         check
     */
    private static Optional<UploadOutcome> createOnly(UploadTask task, ObjectWriter writer, Map<String, String> metadata) {
        try {
            String etag = writer.putIfUnchanged(task.key(), task.localPath(), task.bytes(), task.sha256(), metadata,
                    null).etag();
            return Optional.of(new UploadOutcome.Stored(etag, false));
        } catch (PreconditionFailedException e) {
            // stored since the HEAD: by another writer, or by an earlier attempt of this PUT whose answer was lost
            Optional<ObjectHead> now = writer.head(task.key());
            if (now.isEmpty()) {
                return Optional.of(new UploadOutcome.Failed(task.key() + " changed while " + task.localPath()
                        + " was stored (the store refused a create-only PUT, then had no object): retried", false));
            }
            if (task.sha256().equals(now.get().sha256()) && now.get().bytes() == task.bytes()) {
                return Optional.of(new UploadOutcome.Stored(now.get().etag(), true));
            }
            return Optional.of(refused(task, now.get()));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static UploadOutcome refused(UploadTask task, ObjectHead stored) {
        String what = task.kind() == ObjectKind.DATASET_MANIFEST ? "dataset manifest" : "model manifest";
        String rule = task.kind() == ObjectKind.DATASET_MANIFEST ? "a sealed revision never changes"
                : "a published model revision never changes";
        return new UploadOutcome.Failed(task.key() + " already holds another " + what + " (sha256 " + stored.sha256()
                + ", " + stored.bytes() + " bytes): " + rule + ", so " + task.localPath() + " (sha256 " + task.sha256()
                + ") is not stored", true);
    }
}
