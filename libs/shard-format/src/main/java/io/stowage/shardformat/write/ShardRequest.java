package io.stowage.shardformat.write;

import java.nio.file.Path;

/**
 * What to shard and where to stage it.
 *
 * @param dir              the dataset directory (absolute)
 * @param dataset          dataset name (key segment)
 * @param revision         revision (key segment)
 * @param license          licence of the data, may be null
 * @param source           where the data came from, may be null
 * @param targetShardBytes target member bytes per shard, positive
 * @param stagingDir       staging root; files go under {@code <stagingDir>/datasets/<dataset>/<revision>/}
 */
public record ShardRequest(Path dir, String dataset, String revision, String license, String source,
                           long targetShardBytes, Path stagingDir) {
}
