package io.stowage.events;

import java.util.List;

/**
 * A checkpoint step directory is complete (renamed into place) and its checkpoint manifest
 * (files, bytes, SHA-256 at publish time) is written. Produced by the CLI on
 * {@link Topics#CHECKPOINT_PUBLISHED}; consumed by uploader and ledger.
 *
 * @param stepDir        absolute path of the step directory
 * @param manifestPath   absolute local path of the checkpoint manifest ({@link io.stowage.events.manifest.CheckpointManifest}), outside stepDir
 * @param manifestSha256 its SHA-256
 * @param fileCount      number of files in the step directory
 * @param totalBytes     their total size in bytes
 * @param key            a key checkpoint: gets a second copy in the replica store (gate condition 4)
 * @param tags           free labels such as "best"; never null
 * @param provenance     code commit, config hash, data manifest hash; never null, fields may be
 */
public record CheckpointPublished(EventMeta meta, String experiment, String run, long step, String stepDir,
                                  String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                                  boolean key, List<String> tags, Provenance provenance) implements StowageEvent {

    public static CheckpointPublished of(EventMeta meta, String experiment, String run, long step, String stepDir,
                                         String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                                         boolean key, List<String> tags, Provenance provenance) {
        CheckpointPublished event = new CheckpointPublished(meta, experiment, run, step, stepDir, manifestPath,
                manifestSha256, fileCount, totalBytes, key, List.copyOf(tags), provenance);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.checkpoint(experiment, run, step);
    }

    @Override
    public String topic() {
        return Topics.CHECKPOINT_PUBLISHED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.requireNonNegative("step", step);
        Validation.requireText("stepDir", stepDir);
        Validation.requireText("manifestPath", manifestPath);
        Validation.requireSha256("manifestSha256", manifestSha256);
        Validation.requireNonNegative("fileCount", fileCount);
        Validation.requireNonNegative("totalBytes", totalBytes);
        Validation.require(tags != null, "tags is missing");
        Validation.require(provenance != null, "provenance is missing");
    }
}
