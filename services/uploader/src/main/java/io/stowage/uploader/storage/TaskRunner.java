package io.stowage.uploader.storage;

import io.stowage.events.ObjectKind;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PermanentStoreException;
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
 * the key (content idempotency), otherwise puts the file, except over a dataset manifest ({@code manifest.json}
 * of a sealed revision) that already holds other content or no SHA-256 metadata: that is a permanent failure, the
 * stored object stays as it is. Every failure becomes an
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
            if (existing.isPresent() && task.kind() == ObjectKind.DATASET_MANIFEST) {
                return new UploadOutcome.Failed(task.key() + " already holds another dataset manifest (sha256 "
                        + existing.get().sha256() + ", " + existing.get().bytes() + " bytes): a sealed revision never"
                        + " changes, so " + file + " (sha256 " + task.sha256() + ") is not stored", true);
            }
            if (existing.isPresent() && task.kind() == ObjectKind.MODEL_MANIFEST) {
                return new UploadOutcome.Failed(task.key() + " already holds another model manifest (sha256 "
                        + existing.get().sha256() + ", " + existing.get().bytes() + " bytes): a published model"
                        + " revision never changes, so " + file + " (sha256 " + task.sha256() + ") is not stored", true);
            }
            String etag = writer.put(task.key(), task.localPath(), task.bytes(), task.sha256(),
                    Map.of("kind", task.kind().name())).etag();
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
}
