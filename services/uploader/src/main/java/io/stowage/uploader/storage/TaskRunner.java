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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Carries out one {@link UploadTask} against its store: skips it when the same SHA-256 is already at
 * the key (content idempotency), otherwise puts the file, except over a dataset or model manifest ({@code manifest.json}
 * of a sealed revision) that already holds other content or no SHA-256 metadata: that is a permanent failure, the
 * stored object stays as it is. A manifest is put create-only ({@code If-None-Match: *}) where the store supports it,
 * so a manifest stored by another writer between the HEAD and the PUT is never replaced either. Every failure becomes an
 * {@link UploadOutcome.Failed}, never an exception. Blocking: call it from a worker thread.
 * <p>
 * A file below {@link #PUT_FIRST_BELOW} is put create-only first, without the HEAD: a new object (nearly every object
 * of a new checkpoint step or shard) then costs one request instead of two. Only when the store refuses it because the
 * key holds an object does the HEAD decide, as above, between "already stored" (the same SHA-256 and size), a refusal
 * (an immutable manifest) and an overwrite, so the outcome is the same as with the HEAD first; so does a local file
 * that cannot be read or is not the published one (an object already stored needs no local file). A store that does not
 * implement conditional writes (HTTP 501) is remembered and gets the HEAD first from then on.
 */
@ApplicationScoped
public class TaskRunner {
    /**
     * Files of fewer bytes than this (8 MiB) are put create-only before any HEAD. A larger file keeps the HEAD first,
     * so that an object already stored (a redelivered event, a step published again) is not sent again in full only to
     * be refused.
     */
    public static final long PUT_FIRST_BELOW = 8L << 20;
    private final ObjectWriters writers;
    // the stores that answered a conditional write with 501 (not implemented): they get the HEAD first
    private final Set<String> withoutConditionalWrites = ConcurrentHashMap.newKeySet();

    TaskRunner(ObjectWriters writers) {
        this.writers = writers;
    }

    /** @return stored (sent or skipped) or failed, with a one-line reason naming the file */
    public UploadOutcome run(UploadTask task) {
        boolean putFirst = task.bytes() < PUT_FIRST_BELOW && !withoutConditionalWrites.contains(task.store());
        return run(task, writers.forStore(task.store()), putFirst, () -> withoutConditionalWrites.add(task.store()));
    }

    /** As {@link #run(UploadTask)} with the writer of the task's store given, the HEAD always first. */
    static UploadOutcome run(UploadTask task, ObjectWriter writer) {
        return run(task, writer, false, () -> { });
    }

    /**
     * @param putFirst              put the file create-only before any HEAD (a small file)
     * @param noConditionalWrites   called when the store answered that it does not implement conditional writes
     */
    static UploadOutcome run(UploadTask task, ObjectWriter writer, boolean putFirst, Runnable noConditionalWrites) {
        String file = task.localPath().toString();
        try {
            if (putFirst) {
                Optional<String> created = createIfAbsent(task, writer, noConditionalWrites);
                if (created.isPresent()) {
                    return new UploadOutcome.Stored(created.get(), false);
                }
            }
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

    /**
     * One create-only PUT ({@code If-None-Match: *}) of a small file.
     *
     * @return the stored object's ETag; empty when the key holds an object (the store refused the PUT, or an earlier
     *         attempt of it whose answer was lost stored it), the store cannot write conditionally, or the local file is
     *         missing, unreadable or not the published one: the HEAD decides then
     */
    private static Optional<String> createIfAbsent(UploadTask task, ObjectWriter writer, Runnable noConditionalWrites) {
        try {
            return Optional.of(writer.putIfUnchanged(task.key(), task.localPath(), task.bytes(), task.sha256(),
                    Map.of("kind", task.kind().name()), null).etag());
        } catch (PreconditionFailedException e) {
            return Optional.empty();
        } catch (SourceChangedException | UncheckedIOException e) {
            // the local file is gone or not the published one: nothing was sent; an object already stored with the
            // task's bytes and SHA-256 needs no local file (a promoted model revision names objects, not files), so the
            // HEAD decides, as with the HEAD first
            return Optional.empty();
        } catch (UnsupportedOperationException e) {
            noConditionalWrites.run();
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // at or above the store's multipart threshold: not one request
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
