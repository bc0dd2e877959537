package io.stowage.events;

/**
 * A hash-bound baseline archive of one directory was written to local staging: one deterministic {@code tar.zst}
 * (the same format as a dataset shard, built by the shard-builder's ShardWriter), its member manifest (JSONL: path,
 * bytes, SHA-256) and its baseline manifest ({@link io.stowage.events.manifest.BaselineManifest}). Produced by
 * shard-builder on {@link Topics#BASELINE_ARCHIVED} ({@code POST /api/baselines/archive}); consumed by the uploader
 * (archive to {@link ObjectKeys#baselineArchive}, member manifest to {@link ObjectKeys#baselineMembers}) and the
 * ledger (asset {@link AssetIds#baseline}, kind {@code baseline}, local root {@code sourceDir}).
 *
 * @param model          model name (key segment)
 * @param milestone      milestone name (key segment)
 * @param sourceDir      absolute path of the archived directory
 * @param archivePath    absolute local path of the archive file {@code <sha256>.tar.zst}
 * @param bytes          size of the archive file in bytes
 * @param sha256         SHA-256 of the archive file (its content address)
 * @param membersPath    absolute local path of the member manifest
 * @param membersBytes   its size in bytes
 * @param membersSha256  its SHA-256
 * @param manifestPath   absolute local path of the baseline manifest (JSON), which the gate trusts by this SHA-256
 * @param manifestBytes  its size in bytes
 * @param manifestSha256 its SHA-256
 * @param memberCount    number of files in the archive
 * @param memberBytes    their total uncompressed size in bytes
 */
public record BaselineArchived(EventMeta meta, String model, String milestone, String sourceDir,
                               String archivePath, long bytes, String sha256,
                               String membersPath, long membersBytes, String membersSha256,
                               String manifestPath, long manifestBytes, String manifestSha256,
                               int memberCount, long memberBytes) implements StowageEvent {

    /** @throws InvalidEventException when a field is missing or malformed */
    public static BaselineArchived of(EventMeta meta, String model, String milestone, String sourceDir,
                                      String archivePath, long bytes, String sha256,
                                      String membersPath, long membersBytes, String membersSha256,
                                      String manifestPath, long manifestBytes, String manifestSha256,
                                      int memberCount, long memberBytes) {
        BaselineArchived event = new BaselineArchived(meta, model, milestone, sourceDir, archivePath, bytes, sha256,
                membersPath, membersBytes, membersSha256, manifestPath, manifestBytes, manifestSha256, memberCount,
                memberBytes);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.baseline(model, milestone);
    }

    @Override
    public String topic() {
        return Topics.BASELINE_ARCHIVED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("model", model);
        Validation.requireSegment("milestone", milestone);
        Validation.requireText("sourceDir", sourceDir);
        Validation.requireText("archivePath", archivePath);
        Validation.requireNonNegative("bytes", bytes);
        Validation.requireSha256("sha256", sha256);
        Validation.requireText("membersPath", membersPath);
        Validation.requireNonNegative("membersBytes", membersBytes);
        Validation.requireSha256("membersSha256", membersSha256);
        Validation.requireText("manifestPath", manifestPath);
        Validation.requireNonNegative("manifestBytes", manifestBytes);
        Validation.requireSha256("manifestSha256", manifestSha256);
        Validation.requireNonNegative("memberCount", memberCount);
        Validation.requireNonNegative("memberBytes", memberBytes);
    }
}
