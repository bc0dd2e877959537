package io.stowage.events;

/**
 * An operator asks to release (delete) exactly one local directory. Produced by the CLI
 * ({@code stowage release}) on {@link Topics#VOLUME_RELEASE_REQUESTED}; consumed by gatekeeper
 * and ledger. The Kafka key is {@link AssetIds#release(String)}.
 *
 * @param requestId   unique id of the request; also the correlation id of every event it causes
 * @param path        absolute, normalised path of the directory to release
 * @param dryRun      evaluate the gate only: nothing is deleted even when it passes
 * @param requestedBy who asked (operator name from the environment)
 */
public record ReleaseRequested(EventMeta meta, String requestId, String path, boolean dryRun,
                               String requestedBy) implements StowageEvent {

    public static ReleaseRequested of(EventMeta meta, String requestId, String path, boolean dryRun,
                                      String requestedBy) {
        ReleaseRequested event = new ReleaseRequested(meta, requestId, path, dryRun, requestedBy);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.VOLUME_RELEASE_REQUESTED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("path", path);
        Validation.require(path.startsWith("/"), "path is not absolute: " + path);
    }
}
