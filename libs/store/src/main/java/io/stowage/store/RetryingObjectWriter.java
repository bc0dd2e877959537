package io.stowage.store;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * An {@link ObjectWriter} that retries transient failures of another writer with a {@link RetryPolicy}.
 * A put is retried whole: a failed put leaves nothing at its key.
 */
public final class RetryingObjectWriter implements ObjectWriter {
    private final ObjectWriter delegate;
    private final RetryPolicy policy;

    public RetryingObjectWriter(ObjectWriter delegate, RetryPolicy policy) {
        this.delegate = delegate;
        this.policy = policy;
    }

    @Override
    public String storeName() {
        return delegate.storeName();
    }

    @Override
    public String bucket() {
        return delegate.bucket();
    }

    @Override
    public PutResult put(String key, Path file, long bytes, String sha256, Map<String, String> metadata) {
        return policy.call(() -> delegate.put(key, file, bytes, sha256, metadata));
    }

    /** Retried whole on a transient failure; a refused condition ({@link PreconditionFailedException}) is not. */
    @Override
    public PutResult putIfUnchanged(String key, Path file, long bytes, String sha256, Map<String, String> metadata,
                                    String expectedEtag) {
        return policy.call(() -> delegate.putIfUnchanged(key, file, bytes, sha256, metadata, expectedEtag));
    }

    @Override
    public Optional<ObjectHead> head(String key) {
        return policy.call(() -> delegate.head(key));
    }

    @Override
    public int abortIncompleteUploads(String key) {
        return policy.call(() -> delegate.abortIncompleteUploads(key));
    }

    @Override
    public int abortUploadsOlderThan(java.time.Duration age) {
        return policy.call(() -> delegate.abortUploadsOlderThan(age));
    }
}
