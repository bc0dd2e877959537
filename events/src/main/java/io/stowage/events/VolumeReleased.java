package io.stowage.events;

import java.math.BigDecimal;

/**
 * The approved directory was deleted. Produced by provider-adapter on {@link Topics#VOLUME_RELEASED}.
 *
 * @param provider             which provider performed it ("local")
 * @param fileCount            files deleted
 * @param totalBytes           bytes freed
 * @param bytesFreed           bytes freed on the volume (equal to {@code totalBytes}; null in events written before
 *                             these two fields existed)
 * @param costSavedUsdPerMonth US dollars per month saved by keeping these bytes in the object store instead of on
 *                             a network volume: bytesFreed / 10^9 x (volume price - store price) per GB-month, from
 *                             the provider-adapter's price table; null when not computed
 */
public record VolumeReleased(EventMeta meta, String requestId, String path, String provider, int fileCount,
                             long totalBytes, Long bytesFreed, BigDecimal costSavedUsdPerMonth)
        implements StowageEvent {

    /** The shape before the saving fields: no saving recorded. */
    public VolumeReleased(EventMeta meta, String requestId, String path, String provider, int fileCount,
                          long totalBytes) {
        this(meta, requestId, path, provider, fileCount, totalBytes, null, null);
    }

    public static VolumeReleased of(EventMeta meta, String requestId, String path, String provider, int fileCount,
                                    long totalBytes) {
        VolumeReleased event = new VolumeReleased(meta, requestId, path, provider, fileCount, totalBytes);
        event.validate();
        return event;
    }

    /** @return this event with {@code bytesFreed = totalBytes} and the given monthly saving (US dollars) */
    public VolumeReleased withSaving(BigDecimal costSavedUsdPerMonth) {
        VolumeReleased event = new VolumeReleased(meta, requestId, path, provider, fileCount, totalBytes, totalBytes,
                costSavedUsdPerMonth);
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
        Validation.require(bytesFreed == null || bytesFreed >= 0, "bytesFreed is negative");
    }
}
