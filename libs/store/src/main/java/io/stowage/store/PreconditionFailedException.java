package io.stowage.store;

/**
 * The store refused a conditional write because the object at its key is no longer the one the writer saw: HTTP 412
 * {@code PreconditionFailed} (the {@code If-Match} ETag no longer matches, or {@code If-None-Match: *} found an
 * object), or HTTP 409 {@code ConditionalRequestConflict} (another conditional write to the key was under way).
 * Nothing was written. Retrying the same request cannot help; the writer reads the object again and decides anew.
 */
public class PreconditionFailedException extends PermanentStoreException {
    public PreconditionFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
