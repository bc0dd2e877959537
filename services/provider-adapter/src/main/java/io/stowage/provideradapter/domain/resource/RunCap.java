package io.stowage.provideradapter.domain.resource;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A hard cap on a training run: the volumes and pods created with its {@code runId} together may cost at most
 * {@code capUsd}, live at most {@code maxSeconds} from the first of them, and its pods may use at most
 * {@code capGpuHours} GPU hours (each pod's GPU count times the hours it lived, {@link CapRule#gpuHours}). When
 * reached, the run is asked to checkpoint first ({@code checkpointRequestedAt}), then, after the grace period, its
 * pods are terminated and its volumes released through the gate ({@code triggeredAt}).
 *
 * @param capUsd                money cap in US dollars, null for none
 * @param maxSeconds            wall-time cap in seconds, 0 for none
 * @param capGpuHours           GPU-hour cap, null for none (a cap saved before this field existed reads null)
 * @param checkpointRequestedAt when the checkpoint was asked for, null before
 * @param triggeredAt           when the run was stopped, null before
 */
public record RunCap(String runId, BigDecimal capUsd, long maxSeconds, BigDecimal capGpuHours, Instant createdAt,
                     Instant checkpointRequestedAt, Instant triggeredAt) {

    public RunCap {
        if (runId == null || !runId.matches("[A-Za-z0-9._-]{1,128}")) {
            throw new IllegalArgumentException("run id must be 1-128 of [A-Za-z0-9._-]: " + runId);
        }
        if (capUsd != null && capUsd.signum() <= 0) {
            throw new IllegalArgumentException("cap must be positive: " + capUsd);
        }
        if (maxSeconds < 0) {
            throw new IllegalArgumentException("maxSeconds must not be negative");
        }
        if (capGpuHours != null && capGpuHours.signum() <= 0) {
            throw new IllegalArgumentException("GPU-hour cap must be positive: " + capGpuHours);
        }
    }

    /** @return this cap with the checkpoint asked for at {@code at} */
    public RunCap checkpointRequested(Instant at) {
        return new RunCap(runId, capUsd, maxSeconds, capGpuHours, createdAt, at, triggeredAt);
    }

    /** @return this cap spent at {@code at} */
    public RunCap triggered(Instant at) {
        return new RunCap(runId, capUsd, maxSeconds, capGpuHours, createdAt, checkpointRequestedAt, at);
    }
}
