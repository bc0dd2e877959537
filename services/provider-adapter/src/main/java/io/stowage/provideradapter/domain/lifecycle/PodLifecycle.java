package io.stowage.provideradapter.domain.lifecycle;

import io.stowage.events.AssetIds;
import io.stowage.events.PodCreated;
import io.stowage.events.PodTerminated;
import io.stowage.events.ProviderActionFailed;
import io.stowage.events.ProviderAlert;
import io.stowage.events.StowageEvent;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.provideradapter.domain.resource.ComputeProvider;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.PodSpec;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.ProvisionedPod;
import io.stowage.provideradapter.domain.resource.ResourceStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pod's life: created ({@code pod.created}, with the provider's hourly price) and terminated by an operator or
 * when its wall-time or money cap is reached ({@code pod.terminated} with its lifetime cost, plus a
 * {@code provider.alert} for a cap). A pod holds no archived data of its own (its files live on the volume, which
 * goes through the gate), so terminating it needs no gate. Terminating a terminated pod is a no-op.
 */
public final class PodLifecycle {
    private final ComputeProvider provider;
    private final ResourceStore store;
    private final CostCalculator costs;

    public PodLifecycle(ComputeProvider provider, ResourceStore store, CostCalculator costs) {
        this.provider = provider;
        this.store = store;
        this.costs = costs;
    }

    /** @return the new pod and its pod.created, or the failure and its provider.action.failed */
    public synchronized LifecycleResult<ManagedPod> create(PodSpec spec, Instant now) {
        ProvisionedPod made;
        try {
            made = provider.createPod(spec);
        } catch (ProviderException e) {
            return LifecycleResult.failed(null, e.getMessage(), List.of(failed("create-pod", spec.name(), e, now)));
        }
        Instant expiresAt = spec.ttl().isZero() ? null : now.plus(spec.ttl());
        ManagedPod pod = new ManagedPod(made.id(), provider.name(), spec.name(), spec.gpuTypeId(), spec.gpuCount(),
                made.costPerHourUsd(), spec.volumeId(), now, expiresAt, spec.capUsd(), spec.runId(), null, null);
        store.save(pod);
        return LifecycleResult.ok(pod, List.of(PodCreated.of(VolumeLifecycle.meta(AssetIds.pod(pod.id()), null, now),
                pod.id(), pod.provider(), pod.name(), pod.gpuTypeId(), pod.gpuCount(), pod.costPerHourUsd(),
                pod.volumeId(), spec.ttl().getSeconds(), expiresAt, spec.capUsd(), spec.runId())));
    }

    /**
     * @param reason "ttl", "cap", "run-cap" or "operator"
     * @return the pod as it is now, with pod.terminated (and an alert for a cap), nothing when already terminated
     */
    public synchronized LifecycleResult<ManagedPod> terminate(String podId, String reason, Instant now) {
        Optional<ManagedPod> found = store.pod(podId);
        if (found.isEmpty()) {
            return LifecycleResult.failed(null, "unknown pod " + podId, List.of());
        }
        ManagedPod pod = found.get();
        if (!pod.running()) {
            return LifecycleResult.ok(pod, List.of());
        }
        try {
            provider.terminatePod(pod.id());
        } catch (ProviderException e) {
            return LifecycleResult.failed(pod, e.getMessage(), List.of(failed("terminate-pod", pod.id(), e, now)));
        }
        ManagedPod terminated = pod.terminated(now, reason);
        store.save(terminated);
        List<StowageEvent> events = new ArrayList<>();
        if (!"operator".equals(reason)) {
            events.add(ProviderAlert.of(VolumeLifecycle.meta(AssetIds.pod(pod.id()), null, now), "pod", pod.id(),
                    reason + "-reached", "pod " + pod.id() + " reached " + ("ttl".equals(reason) ? "its wall-time cap"
                            : "cap".equals(reason) ? "its money cap" : "its run's cap") + " at " + now + "; terminated",
                    List.of(), null));
        }
        Duration lifetime = Duration.between(pod.createdAt(), now);
        events.add(PodTerminated.of(VolumeLifecycle.meta(AssetIds.pod(pod.id()), null, now), pod.id(), pod.provider(),
                Math.max(0, lifetime.getSeconds()), costs.podCost(pod.costPerHourUsd(), lifetime), reason));
        return LifecycleResult.ok(terminated, events);
    }

    private ProviderActionFailed failed(String action, String id, ProviderException e, Instant now) {
        return ProviderActionFailed.of(VolumeLifecycle.meta(AssetIds.pod(id), null, now), action, "pod", id,
                provider.name(), e.httpStatus(), e.permanent(), e.getMessage());
    }
}
