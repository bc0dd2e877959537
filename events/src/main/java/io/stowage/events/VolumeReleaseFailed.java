package io.stowage.events;

/**
 * The provider-adapter did not perform an approved release, e.g. because the directory changed
 * since the gate evaluated it. Produced on {@link Topics#VOLUME_RELEASE_FAILED}; nothing was deleted
 * unless {@code reason} says otherwise.
 *
 * @param reason one line naming the problem
 */
public record VolumeReleaseFailed(EventMeta meta, String requestId, String path, String reason)
        implements StowageEvent {

    public static VolumeReleaseFailed of(EventMeta meta, String requestId, String path, String reason) {
        VolumeReleaseFailed event = new VolumeReleaseFailed(meta, requestId, path, reason);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.VOLUME_RELEASE_FAILED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("reason", reason);
    }
}
