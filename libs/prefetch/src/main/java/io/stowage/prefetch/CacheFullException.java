package io.stowage.prefetch;

/**
 * Thrown when the cache cannot make room for a shard within its byte limit: every cached shard that could go is
 * pinned by an open {@link ShardLease} or belongs to the revision being fetched, or the shard alone exceeds the limit.
 * Nothing was evicted when it is thrown for a whole revision ({@link DatasetFetcher#fetchAll}).
 */
public final class CacheFullException extends RuntimeException {
    public CacheFullException(String message) {
        super(message);
    }
}
