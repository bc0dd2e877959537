package io.stowage.provideradapter.domain.resource;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A pod the provider-adapter created and watches, as kept in its state directory.
 *
 * @param costPerHourUsd what it bills per hour (from the provider's answer)
 * @param expiresAt      end of its wall-time cap, null for none
 * @param capUsd         money cap, null for none
 * @param terminatedAt   when it was terminated, null while it runs
 * @param reason         why it was terminated ("ttl", "cap", "run-cap", "operator"), null while it runs
 */
public record ManagedPod(String id, String provider, String name, String gpuTypeId, int gpuCount,
                         BigDecimal costPerHourUsd, String volumeId, Instant createdAt, Instant expiresAt,
                         BigDecimal capUsd, String runId, Instant terminatedAt, String reason) {

    /** @return this pod terminated at {@code at} for {@code why} */
    public ManagedPod terminated(Instant at, String why) {
        return new ManagedPod(id, provider, name, gpuTypeId, gpuCount, costPerHourUsd, volumeId, createdAt, expiresAt,
                capUsd, runId, at, why);
    }

    /** @return true until it is terminated */
    public boolean running() {
        return terminatedAt == null;
    }
}
