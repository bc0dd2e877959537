package io.stowage.shardbuilder.api;

import java.util.List;

/**
 * Answer of {@code POST /api/datasets/shard}, sent once Kafka acknowledged every event.
 *
 * @param assetId        {@code dataset/<dataset>/<revision>}, the Kafka key of the events
 * @param shards         number of shards
 * @param members        number of files across all shards
 * @param memberBytes    their total size in bytes
 * @param manifestPath   absolute path of the dataset manifest
 * @param manifestSha256 its SHA-256
 * @param shardShas      SHA-256 of each shard, in index order
 * @param alreadySealed  true when the ledger already held the revision sealed with this manifest SHA-256: no event
 *                       was sent
 */
public record ShardResponse(String dataset, String revision, String assetId, int shards, int members,
                            long memberBytes, String manifestPath, String manifestSha256, List<String> shardShas,
                            boolean alreadySealed) {
}
