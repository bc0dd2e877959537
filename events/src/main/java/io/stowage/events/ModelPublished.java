package io.stowage.events;

/**
 * A model revision is ready to upload: its files (in {@code sourceDir}) and its model manifest
 * ({@link io.stowage.events.manifest.ModelManifest}, written to local staging) go to
 * {@code models/<model>/<revision>/<sha256>/<path>} and {@code models/<model>/<revision>/manifest.json}. Produced by
 * the CLI ({@code stowage model publish}) on {@link Topics#MODEL_PUBLISHED}; consumed by the uploader and the ledger
 * (asset {@code model/<model>/<revision>}, the gate's evidence for releasing {@code sourceDir}).
 *
 * @param sourceDir      absolute path of the model directory the files are read from
 * @param manifestPath   absolute local path of the model manifest, outside sourceDir
 * @param manifestBytes  its size in bytes
 * @param manifestSha256 its SHA-256
 * @param fileCount      number of files in the model directory
 * @param totalBytes     their total size in bytes
 * @param license        the licence (as in the manifest); never blank
 * @param source         the source (as in the manifest); never blank
 * @param fromCheckpoint the checkpoint step asset id it was promoted from, or null
 */
public record ModelPublished(EventMeta meta, String model, String revision, String sourceDir, String manifestPath,
                             long manifestBytes, String manifestSha256, int fileCount, long totalBytes,
                             String license, String source, String fromCheckpoint) implements StowageEvent {

    public static ModelPublished of(EventMeta meta, String model, String revision, String sourceDir,
                                    String manifestPath, long manifestBytes, String manifestSha256, int fileCount,
                                    long totalBytes, String license, String source, String fromCheckpoint) {
        ModelPublished event = new ModelPublished(meta, model, revision, sourceDir, manifestPath, manifestBytes,
                manifestSha256, fileCount, totalBytes, license, source, fromCheckpoint);
        event.validate();
        return event;
    }

    /** @return {@code model/<model>/<revision>} ({@link AssetIds#model}) */
    @Override
    public String assetId() {
        return AssetIds.model(model, revision);
    }

    @Override
    public String topic() {
        return Topics.MODEL_PUBLISHED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("model", model);
        Validation.requireSegment("revision", revision);
        Validation.requireText("sourceDir", sourceDir);
        Validation.requireText("manifestPath", manifestPath);
        Validation.requireNonNegative("manifestBytes", manifestBytes);
        Validation.requireSha256("manifestSha256", manifestSha256);
        Validation.requireNonNegative("fileCount", fileCount);
        Validation.requireNonNegative("totalBytes", totalBytes);
        Validation.requireText("license", license);
        Validation.requireText("source", source);
    }
}
