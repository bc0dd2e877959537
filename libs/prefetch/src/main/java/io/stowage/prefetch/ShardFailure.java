package io.stowage.prefetch;

/**
 * A shard that could not be fetched after its retry: nothing of it is kept in the cache.
 *
 * @param index    0-based shard number of the dataset manifest
 * @param key      object key of the shard
 * @param sha256   the SHA-256 the dataset manifest expects
 * @param attempts GETs made (2: the first and its one retry)
 * @param reason   why the last attempt failed, one line (e.g. "SHA-256 mismatch: got … expected …")
 */
public record ShardFailure(int index, String key, String sha256, int attempts, String reason) {
}
