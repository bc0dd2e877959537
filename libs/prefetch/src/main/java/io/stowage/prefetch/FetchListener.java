package io.stowage.prefetch;

import io.stowage.events.manifest.ShardEntry;

/**
 * Told about a fetch as it runs, from the download threads (implementations must be thread-safe and quick).
 * Every method has an empty default.
 */
public interface FetchListener {
    /** {@code bytes} more bytes of some shard arrived from the store (a retried shard's bytes count again). */
    default void bytesReceived(long bytes) {
    }

    /** The shard was already cached and verified: no GET. */
    default void shardCached(ShardEntry shard) {
    }

    /** The shard was downloaded, its SHA-256 matched, and it is at its final name, after {@code attempts} GETs. */
    default void shardFetched(ShardEntry shard, int attempts) {
    }

    /** The first attempt failed ({@code reason}, e.g. a SHA-256 mismatch) and the shard is tried once more. */
    default void shardRetried(ShardEntry shard, String reason) {
    }

    /** Both attempts failed; no file of the shard was kept. */
    default void shardFailed(ShardFailure failure) {
    }

    /** A listener that does nothing. */
    FetchListener NONE = new FetchListener() {
    };
}
