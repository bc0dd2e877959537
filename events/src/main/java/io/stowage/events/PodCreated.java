package io.stowage.events;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A pod (a GPU machine running one container) was created on a provider. Produced by provider-adapter on
 * {@link Topics#POD_CREATED}. Kafka key {@link AssetIds#pod(String)}.
 *
 * @param podId          the provider's id (local: {@code pod-<uuid>}; RunPod: the pod id)
 * @param gpuTypeId      e.g. "NVIDIA GeForce RTX 4090"; "none" for a CPU pod
 * @param gpuCount       GPUs attached
 * @param costPerHourUsd what the provider bills per hour in US dollars (RunPod's {@code costPerHr}; local: as
 *                       given at creation)
 * @param volumeId       the network volume mounted, null when none
 * @param ttlSeconds     wall-time cap in seconds from {@code meta.time}; 0 = none
 * @param expiresAt      when that cap is reached, null without one
 * @param capUsd         money cap in US dollars, null without one
 * @param runId          the training run it serves, null when none
 */
public record PodCreated(EventMeta meta, String podId, String provider, String name, String gpuTypeId, int gpuCount,
                         BigDecimal costPerHourUsd, String volumeId, long ttlSeconds, Instant expiresAt,
                         BigDecimal capUsd, String runId) implements StowageEvent {

    public static PodCreated of(EventMeta meta, String podId, String provider, String name, String gpuTypeId,
                                int gpuCount, BigDecimal costPerHourUsd, String volumeId, long ttlSeconds,
                                Instant expiresAt, BigDecimal capUsd, String runId) {
        PodCreated event = new PodCreated(meta, podId, provider, name, gpuTypeId, gpuCount, costPerHourUsd, volumeId,
                ttlSeconds, expiresAt, capUsd, runId);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.pod(podId);
    }

    @Override
    public String topic() {
        return Topics.POD_CREATED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("podId", podId);
        Validation.requireText("provider", provider);
        Validation.requireText("name", name);
        Validation.requireNonNegative("gpuCount", gpuCount);
        Validation.require(costPerHourUsd != null && costPerHourUsd.signum() >= 0, "costPerHourUsd is missing");
        Validation.requireNonNegative("ttlSeconds", ttlSeconds);
    }
}
