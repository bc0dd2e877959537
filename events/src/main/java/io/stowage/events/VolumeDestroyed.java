package io.stowage.events;

import java.math.BigDecimal;

/**
 * A provider volume no longer exists: its directory was released through the gate (or was empty) and the
 * provider deleted it. Produced by provider-adapter on {@link Topics#VOLUME_DESTROYED}.
 *
 * @param sizeGb          provisioned size in GB (10^9 bytes)
 * @param lifetimeSeconds seconds from creation to destruction
 * @param costUsd         what it cost over its lifetime in US dollars (size x lifetime x price per GB-month,
 *                        a month being 730 hours)
 * @param reason          why: "ttl", "cap", "operator"
 * @param releaseRequestId the release request whose gate.passed cleared its directory, null when none was needed
 */
public record VolumeDestroyed(EventMeta meta, String volumeId, String provider, int sizeGb, long lifetimeSeconds,
                              BigDecimal costUsd, String reason, String releaseRequestId) implements StowageEvent {

    public static VolumeDestroyed of(EventMeta meta, String volumeId, String provider, int sizeGb,
                                     long lifetimeSeconds, BigDecimal costUsd, String reason,
                                     String releaseRequestId) {
        VolumeDestroyed event = new VolumeDestroyed(meta, volumeId, provider, sizeGb, lifetimeSeconds, costUsd,
                reason, releaseRequestId);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.volume(volumeId);
    }

    @Override
    public String topic() {
        return Topics.VOLUME_DESTROYED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("volumeId", volumeId);
        Validation.requireText("provider", provider);
        Validation.requireNonNegative("lifetimeSeconds", lifetimeSeconds);
        Validation.require(costUsd != null && costUsd.signum() >= 0, "costUsd is missing or negative");
        Validation.requireText("reason", reason);
    }
}
