package io.stowage.events.manifest;

/**
 * One shard in a {@link DatasetManifest}.
 *
 * @param index         0-based shard number
 * @param key           object key of the shard
 * @param bytes         shard size in bytes
 * @param sha256        shard SHA-256
 * @param membersKey    object key of its member manifest
 * @param membersBytes  member manifest size in bytes
 * @param membersSha256 member manifest SHA-256
 * @param memberCount   number of members
 */
public record ShardEntry(int index, String key, long bytes, String sha256, String membersKey, long membersBytes,
                         String membersSha256, int memberCount) {
}
