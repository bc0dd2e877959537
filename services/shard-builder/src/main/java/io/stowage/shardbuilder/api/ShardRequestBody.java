package io.stowage.shardbuilder.api;

/**
 * JSON body of {@code POST /api/datasets/shard}.
 *
 * @param dir              absolute path of the dataset directory
 * @param dataset          dataset name (ASCII letters, digits, '.', '_', '-')
 * @param revision         revision name (same alphabet)
 * @param license          licence of the data, optional
 * @param source           where the data came from, optional
 * @param targetShardBytes target member bytes per shard, optional (default from configuration); 1–4 GiB
 *                         unless small shards are allowed, then any positive size
 * @param stagingDir       absolute staging root, optional (default from configuration)
 * @param allowSmallShards {@code true} permits any positive {@code targetShardBytes} (tests, demos); optional
 */
public record ShardRequestBody(String dir, String dataset, String revision, String license, String source,
                               Long targetShardBytes, String stagingDir, Boolean allowSmallShards) {
}
