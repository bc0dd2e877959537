package io.stowage.provideradapter.domain.resource;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * What an operator asks for when creating a pod ({@code stowage pod create}).
 *
 * @param name           a name of ASCII letters, digits, '.', '_' or '-'
 * @param imageName      container image, e.g. "runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04"
 * @param gpuTypeId      RunPod GPU type id, e.g. "NVIDIA GeForce RTX 4090"; "none" for a CPU pod
 * @param gpuCount       GPUs, 0 for a CPU pod
 * @param costPerHourUsd the hourly price the local provider records (RunPod reports its own {@code costPerHr})
 * @param volumeId       network volume to mount at /workspace, null for none
 * @param ttl            wall-time cap, {@link Duration#ZERO} for none
 * @param capUsd         money cap in US dollars, null for none
 * @param runId          the training run it serves, null for none
 */
public record PodSpec(String name, String imageName, String gpuTypeId, int gpuCount, BigDecimal costPerHourUsd,
                      String volumeId, Duration ttl, BigDecimal capUsd, String runId) {

    public PodSpec {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("pod name must be 1-64 of [A-Za-z0-9._-]: " + name);
        }
        if (gpuCount < 0) {
            throw new IllegalArgumentException("gpuCount must not be negative");
        }
        if (costPerHourUsd == null || costPerHourUsd.signum() < 0) {
            throw new IllegalArgumentException("costPerHourUsd must be given and not negative");
        }
        if (ttl == null || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be zero (none) or positive");
        }
        if (capUsd != null && capUsd.signum() <= 0) {
            throw new IllegalArgumentException("cap must be positive: " + capUsd);
        }
        gpuTypeId = gpuTypeId == null || gpuTypeId.isBlank() ? "none" : gpuTypeId;
    }
}
