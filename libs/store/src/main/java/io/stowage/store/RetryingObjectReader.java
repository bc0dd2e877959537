package io.stowage.store;

import java.util.List;
import java.util.Optional;

/** An {@link ObjectReader} that retries transient failures of another reader with a {@link RetryPolicy}. */
public final class RetryingObjectReader implements ObjectReader {
    private final ObjectReader delegate;
    private final RetryPolicy policy;

    public RetryingObjectReader(ObjectReader delegate, RetryPolicy policy) {
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
    public Optional<ObjectHead> head(String key) {
        return policy.call(() -> delegate.head(key));
    }

    @Override
    public ReadResult readAndHash(String key) {
        return policy.call(() -> delegate.readAndHash(key));
    }

    @Override
    public ReadResult readAndHash(String key, ObjectHead seen) {
        return policy.call(() -> delegate.readAndHash(key, seen));
    }

    @Override
    public List<String> list(String prefix) {
        return policy.call(() -> delegate.list(prefix));
    }

    /** Retries opening the stream (the GET's answer); a stream that breaks while read is not retried here. */
    @Override
    public java.io.InputStream open(String key) {
        return policy.call(() -> delegate.open(key));
    }
}
