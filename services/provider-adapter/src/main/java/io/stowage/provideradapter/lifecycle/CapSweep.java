package io.stowage.provideradapter.lifecycle;

import io.stowage.events.StowageEvent;
import io.stowage.provideradapter.domain.resource.CapRule;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.ResourceStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Looks at every running pod and every volume not yet destroyed at one instant and acts on those past their time
 * to live or money cap ({@link CapRule}): pods are terminated first (so nothing writes to a volume being
 * released), then each due volume is released through the gate. A BLOCKED volume is asked for again at every
 * sweep, so its alert repeats until what blocks it is archived. Called on a timer with the system clock and by
 * {@code POST /api/sweep?at=} with any instant (tests, operators).
 */
public final class CapSweep {
    private final ResourceStore store;
    private final CapRule caps;
    private final VolumeLifecycle volumes;
    private final PodLifecycle pods;

    public CapSweep(ResourceStore store, CapRule caps, VolumeLifecycle volumes, PodLifecycle pods) {
        this.store = store;
        this.caps = caps;
        this.volumes = volumes;
        this.pods = pods;
    }

    /** @return every event to send, in order, and one line per action taken */
    public synchronized Sweep run(Instant now) {
        List<StowageEvent> events = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        for (ManagedPod pod : store.pods()) {
            Optional<String> due = pod.running() ? caps.due(pod, now) : Optional.empty();
            if (due.isPresent()) {
                LifecycleResult<ManagedPod> result = pods.terminate(pod.id(), due.get(), now);
                events.addAll(result.events());
                actions.add("pod " + pod.id() + " " + due.get() + ": " + (result.succeeded() ? "terminated"
                        : "terminate failed: " + result.error()));
            }
        }
        for (ManagedVolume volume : store.volumes()) {
            boolean waiting = volume.state() == ManagedVolume.State.ACTIVE
                    || volume.state() == ManagedVolume.State.BLOCKED;
            Optional<String> due = waiting ? caps.due(volume, now) : Optional.empty();
            if (due.isPresent()) {
                LifecycleResult<ManagedVolume> result = volumes.release(volume.id(), due.get(), now);
                events.addAll(result.events());
                actions.add("volume " + volume.id() + " " + due.get() + ": " + (result.succeeded()
                        ? result.value().state().name().toLowerCase(java.util.Locale.ROOT) : "failed: " + result.error()));
            }
        }
        return new Sweep(now, events, actions);
    }

    /** What one sweep did: the events to send and one line per action. */
    public record Sweep(Instant at, List<StowageEvent> events, List<String> actions) {
    }
}
