package io.stowage.events;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A provider volume was created. Produced by provider-adapter on {@link Topics#VOLUME_CREATED}; the ledger
 * projects it into its volume table. Kafka key {@link AssetIds#volume(String)}.
 *
 * @param volumeId  the provider's id (local: {@code vol-<uuid>}; RunPod: the network volume id)
 * @param provider  "local" or "runpod"
 * @param name      the operator's name for it
 * @param purpose   what it is for, e.g. "scratch", "hot"
 * @param sizeGb    provisioned size in GB (10^9 bytes), what the provider bills
 * @param path      absolute directory where its files are (local: the volume directory; RunPod: the mount
 *                  path seen by pods, e.g. {@code /workspace}); what a TTL release asks the gate to release
 * @param ttlSeconds time to live in seconds from {@code meta.time}; 0 = none
 * @param expiresAt when the time to live ends, null without one
 * @param capUsd    hard money cap in US dollars over the volume's lifetime, null without one
 * @param runId     the training run it serves, null when none
 */
public record VolumeCreated(EventMeta meta, String volumeId, String provider, String name, String purpose,
                            int sizeGb, String path, long ttlSeconds, Instant expiresAt, BigDecimal capUsd,
                            String runId) implements StowageEvent {

    public static VolumeCreated of(EventMeta meta, String volumeId, String provider, String name, String purpose,
                                   int sizeGb, String path, long ttlSeconds, Instant expiresAt, BigDecimal capUsd,
                                   String runId) {
        VolumeCreated event = new VolumeCreated(meta, volumeId, provider, name, purpose, sizeGb, path, ttlSeconds,
                expiresAt, capUsd, runId);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.volume(volumeId);
    }

    @Override
    public String topic() {
        return Topics.VOLUME_CREATED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("volumeId", volumeId);
        Validation.requireText("provider", provider);
        Validation.requireText("name", name);
        Validation.require(sizeGb > 0, "sizeGb is not positive: " + sizeGb);
        Validation.requireNonNegative("ttlSeconds", ttlSeconds);
        Validation.require(capUsd == null || capUsd.signum() > 0, "capUsd is not positive");
    }
}
