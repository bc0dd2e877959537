package io.stowage.events;

/**
 * The approved directory was deleted. Produced by provider-adapter on {@link Topics#VOLUME_RELEASED}.
 *
 * @param provider   which provider performed it ("local")
 * @param fileCount  files deleted
 * @param totalBytes bytes freed
 */
public record VolumeReleased(EventMeta meta, String requestId, String path, String provider, int fileCount,
                             long totalBytes) implements StowageEvent {

    public static VolumeReleased of(EventMeta meta, String requestId, String path, String provider, int fileCount,
                                    long totalBytes) {
        VolumeReleased event = new VolumeReleased(meta, requestId, path, provider, fileCount, totalBytes);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.VOLUME_RELEASED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("path", path);
        Validation.requireText("provider", provider);
    }
}
