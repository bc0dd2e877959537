package io.stowage.events;

import java.util.List;

/**
 * All five conditions hold for a release request. Produced by gatekeeper on
 * {@link Topics#GATE_PASSED}; consumed by provider-adapter (which re-checks {@code fingerprint}
 * against the directory before deleting) and ledger.
 *
 * @param assets      the asset ids whose evidence accounts for the directory's files
 * @param fileCount   number of regular files under the directory at evaluation time
 * @param totalBytes  their total size in bytes
 * @param fingerprint SHA-256 over the sorted listing (relative path, bytes, last-modified millis) of every
 *                    entry under the directory, as computed by the gatekeeper
 */
public record GatePassed(EventMeta meta, String requestId, String path, boolean dryRun, List<String> assets,
                         int fileCount, long totalBytes, String fingerprint) implements StowageEvent {

    public static GatePassed of(EventMeta meta, String requestId, String path, boolean dryRun, List<String> assets,
                                int fileCount, long totalBytes, String fingerprint) {
        GatePassed event = new GatePassed(meta, requestId, path, dryRun, List.copyOf(assets), fileCount, totalBytes,
                fingerprint);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.GATE_PASSED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("path", path);
        Validation.require(assets != null && !assets.isEmpty(), "assets is empty");
        Validation.requireSha256("fingerprint", fingerprint);
    }
}
