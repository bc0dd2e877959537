package io.stowage.prefetch;

import java.util.List;

/**
 * What {@link DatasetFetcher#fetchAll} did for one dataset revision.
 *
 * @param dataset         dataset name
 * @param revision        dataset revision
 * @param shards          shards in the dataset manifest
 * @param shardBytes      their total size in bytes
 * @param cached          shards already in the cache (no GET)
 * @param fetched         shards downloaded and verified in this run
 * @param retried         shards whose first download failed and whose retry succeeded
 * @param bytesDownloaded bytes received from the store for shards (retries included)
 * @param seconds         wall-clock time of the fetch, in seconds
 * @param failures        shards that failed twice; empty when the fetch succeeded
 * @param extractedMembers members unpacked and checked by {@code --extract} (0 without it)
 */
public record FetchReport(String dataset, String revision, int shards, long shardBytes, int cached, int fetched,
                          int retried, long bytesDownloaded, double seconds, List<ShardFailure> failures,
                          long extractedMembers) {

    /** @return true when every shard is in the cache, verified */
    public boolean complete() {
        return failures.isEmpty();
    }

    /** @return a copy with the number of extracted members set */
    public FetchReport withExtractedMembers(long members) {
        return new FetchReport(dataset, revision, shards, shardBytes, cached, fetched, retried, bytesDownloaded, seconds,
                failures, members);
    }
}
