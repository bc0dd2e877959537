package io.stowage.events;

/**
 * A shard ({@code tar.zst}) and its member manifest (JSONL) were written to local staging.
 * Produced by shard-builder on {@link Topics#SHARD_BUILT}; consumed by uploader and ledger.
 * The member manifest is referenced by path and SHA-256, never inlined.
 *
 * @param dataset       dataset name (key segment)
 * @param revision      dataset revision (key segment)
 * @param index         0-based shard number within the revision
 * @param sourceDir     absolute path of the dataset directory the members were read from
 * @param shardPath     absolute local path of the finished shard file
 * @param bytes         size of the shard file in bytes
 * @param sha256        SHA-256 of the shard file (its content address)
 * @param membersPath   absolute local path of the member manifest (JSONL: path, bytes, sha256)
 * @param membersBytes  size of the member manifest in bytes
 * @param membersSha256 SHA-256 of the member manifest
 * @param memberCount   number of members (files) in the shard
 * @param memberBytes   total uncompressed bytes of the members
 */
public record ShardBuilt(EventMeta meta, String dataset, String revision, int index, String sourceDir,
                         String shardPath, long bytes, String sha256,
                         String membersPath, long membersBytes, String membersSha256,
                         int memberCount, long memberBytes) implements StowageEvent {

    public static ShardBuilt of(EventMeta meta, String dataset, String revision, int index, String sourceDir,
                                String shardPath, long bytes, String sha256, String membersPath,
                                long membersBytes, String membersSha256, int memberCount, long memberBytes) {
        ShardBuilt event = new ShardBuilt(meta, dataset, revision, index, sourceDir, shardPath, bytes, sha256,
                membersPath, membersBytes, membersSha256, memberCount, memberBytes);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.dataset(dataset, revision);
    }

    @Override
    public String topic() {
        return Topics.SHARD_BUILT;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("dataset", dataset);
        Validation.requireSegment("revision", revision);
        Validation.requireNonNegative("index", index);
        Validation.requireText("sourceDir", sourceDir);
        Validation.requireText("shardPath", shardPath);
        Validation.requireNonNegative("bytes", bytes);
        Validation.requireSha256("sha256", sha256);
        Validation.requireText("membersPath", membersPath);
        Validation.requireNonNegative("membersBytes", membersBytes);
        Validation.requireSha256("membersSha256", membersSha256);
        Validation.requireNonNegative("memberCount", memberCount);
        Validation.requireNonNegative("memberBytes", memberBytes);
    }
}
