package io.stowage.provideradapter.domain.resource;

import io.stowage.provideradapter.domain.cost.CostCalculator;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Decides whether a volume or pod has reached its time to live ("ttl") or its money cap ("cap") at a given
 * instant. The time to live wins when both are reached. Pure: no clock of its own.
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

    private static Optional<String> reached(BigDecimal cap, BigDecimal spent) {
        return cap != null && spent.compareTo(cap) >= 0 ? Optional.of("cap") : Optional.empty();
    }
}
