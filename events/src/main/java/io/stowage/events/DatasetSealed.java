package io.stowage.events;

/**
 * Every shard of a dataset revision is built and its dataset manifest ({@code manifest.json}:
 * revision, license, source, shards) is written to local staging. Produced by shard-builder on
 * {@link Topics#DATASET_SEALED} after the last {@link ShardBuilt}; consumed by uploader and ledger.
 *
 * @param sourceDir      absolute path of the dataset directory
 * @param manifestPath   absolute local path of the dataset manifest JSON ({@link io.stowage.events.manifest.DatasetManifest})
 * @param manifestBytes  its size in bytes
 * @param manifestSha256 its SHA-256
 * @param shardCount     number of shards
 * @param memberCount    number of files across all shards
 * @param memberBytes    total uncompressed bytes of those files
 * @param license        licence of the data (e.g. "CC-BY-SA-3.0"); may be null, then condition 3 needs {@code source}
 * @param source         where the data came from (URL, package, person); may be null
 */
public record DatasetSealed(EventMeta meta, String dataset, String revision, String sourceDir,
                            String manifestPath, long manifestBytes, String manifestSha256,
                            int shardCount, int memberCount, long memberBytes,
                            String license, String source) implements StowageEvent {

    public static DatasetSealed of(EventMeta meta, String dataset, String revision, String sourceDir,
                                   String manifestPath, long manifestBytes, String manifestSha256,
                                   int shardCount, int memberCount, long memberBytes, String license, String source) {
        DatasetSealed event = new DatasetSealed(meta, dataset, revision, sourceDir, manifestPath, manifestBytes,
                manifestSha256, shardCount, memberCount, memberBytes, license, source);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.dataset(dataset, revision);
    }

    @Override
    public String topic() {
        return Topics.DATASET_SEALED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("dataset", dataset);
        Validation.requireSegment("revision", revision);
        Validation.requireText("sourceDir", sourceDir);
        Validation.requireText("manifestPath", manifestPath);
        Validation.requireNonNegative("manifestBytes", manifestBytes);
        Validation.requireSha256("manifestSha256", manifestSha256);
        Validation.requireNonNegative("shardCount", shardCount);
        Validation.requireNonNegative("memberCount", memberCount);
        Validation.requireNonNegative("memberBytes", memberBytes);
    }
}
