package io.stowage.provideradapter.domain.resource;

import io.stowage.provideradapter.domain.cost.CostCalculator;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Decides whether a volume or pod has reached its time to live ("ttl") or its money cap ("cap") at a given
 * instant, and a run also its GPU-hour cap ("gpu-hours"). The time to live wins when several are reached, then the
 * money cap. Pure: no clock of its own.
 */
public final class CapRule {
    private final CostCalculator costs;

    public CapRule(CostCalculator costs) {
        this.costs = costs;
    }

    /** @return "ttl", "cap", or empty when the volume may live on at {@code now} */
    public Optional<String> due(ManagedVolume volume, Instant now) {
        if (volume.expiresAt() != null && !now.isBefore(volume.expiresAt())) {
            return Optional.of("ttl");
        }
        return reached(volume.capUsd(), costs.volumeCost(volume.sizeGb(), Duration.between(volume.createdAt(), now)));
    }

    /** @return "ttl", "cap", or empty when the pod may run on at {@code now} */
    public Optional<String> due(ManagedPod pod, Instant now) {
        if (pod.expiresAt() != null && !now.isBefore(pod.expiresAt())) {
            return Optional.of("ttl");
        }
        return reached(pod.capUsd(), costs.podCost(pod.costPerHourUsd(), Duration.between(pod.createdAt(), now)));
    }

    /**
     * @param volumes every volume record (those of other runs are ignored)
     * @param pods    every pod record (those of other runs are ignored)
     * @return "ttl" when the run's wall time (from its first volume or pod) reached {@code maxSeconds}, "cap" when
     *         its volumes and pods together cost {@code capUsd} or more, "gpu-hours" when its pods used
     *         {@code capGpuHours} or more ({@link #gpuHours}), else empty
     */
    public Optional<String> due(RunCap run, List<ManagedVolume> volumes, List<ManagedPod> pods, Instant now) {
        List<ManagedVolume> runVolumes = volumes.stream().filter(v -> run.runId().equals(v.runId())).toList();
        List<ManagedPod> runPods = pods.stream().filter(p -> run.runId().equals(p.runId())).toList();
        Optional<Instant> first = Stream.concat(runVolumes.stream().map(ManagedVolume::createdAt),
                runPods.stream().map(ManagedPod::createdAt)).min(Instant::compareTo);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        if (run.maxSeconds() > 0 && Duration.between(first.get(), now).getSeconds() >= run.maxSeconds()) {
            return Optional.of("ttl");
        }
        Optional<String> money = reached(run.capUsd(), spent(runVolumes, runPods, now));
        if (money.isPresent()) {
            return money;
        }
        BigDecimal gpuHours = gpuHours(runPods, now);
        return run.capGpuHours() != null && gpuHours.compareTo(run.capGpuHours()) >= 0 ? Optional.of("gpu-hours")
                : Optional.empty();
    }

    /**
     * GPU hours the pods used: the sum over the pods of their GPU count ({@link ManagedPod#gpuCount}, the count the
     * pod was created with, {@code pod create --gpu-count}, sent to the provider and reported in
     * {@code pod.created}) times the hours from creation to termination or {@code now}. A pod created without a GPU
     * count (a CPU pod, count 0) adds 0.
     *
     * @return GPU hours, rounded half up to 6 decimals
     */
    public BigDecimal gpuHours(List<ManagedPod> pods, Instant now) {
        BigDecimal gpuSeconds = BigDecimal.ZERO;
        for (ManagedPod p : pods) {
            long alive = Math.max(0, lifetime(p.createdAt(), p.terminatedAt(), now).toMillis());
            gpuSeconds = gpuSeconds.add(BigDecimal.valueOf(p.gpuCount()).multiply(BigDecimal.valueOf(alive, 3)));
        }
        return gpuSeconds.divide(BigDecimal.valueOf(3600), 6, RoundingMode.HALF_UP);
    }

    /** @return what the volumes and pods cost from their creation to their end or {@code now}, US dollars */
    public BigDecimal spent(List<ManagedVolume> volumes, List<ManagedPod> pods, Instant now) {
        BigDecimal total = BigDecimal.ZERO;
        for (ManagedVolume v : volumes) {
            total = total.add(costs.volumeCost(v.sizeGb(), lifetime(v.createdAt(), v.destroyedAt(), now)));
        }
        for (ManagedPod p : pods) {
            total = total.add(costs.podCost(p.costPerHourUsd(), lifetime(p.createdAt(), p.terminatedAt(), now)));
        }
        return total;
    }

    private static Duration lifetime(Instant from, Instant end, Instant now) {
        return Duration.between(from, end == null || end.isAfter(now) ? now : end);
    }

    private static Optional<String> reached(BigDecimal cap, BigDecimal spent) {
        return cap != null && spent.compareTo(cap) >= 0 ? Optional.of("cap") : Optional.empty();
    }
}
