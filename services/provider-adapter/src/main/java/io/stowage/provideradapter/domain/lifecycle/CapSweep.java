package io.stowage.provideradapter.domain.lifecycle;

import io.stowage.events.ProviderAlert;
import io.stowage.events.StowageEvent;
import io.stowage.provideradapter.domain.resource.CapRule;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.resource.RunCap;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Looks at every run cap, running pod and volume not yet destroyed at one instant and acts on those past their
 * time to live, money cap or (a run's) GPU-hour cap ({@link CapRule}). A run past its cap is first asked to checkpoint (a
 * {@code provider.alert} "checkpoint-requested" naming the run) and stopped one grace period later — its pods
 * terminated, its volumes released through the gate — or at once when none of its pods runs. Then pods past their
 * own caps are terminated (so nothing writes to a volume being released) and due volumes are released through the
 * gate. A BLOCKED volume is asked for again at every sweep, so its alert repeats until what blocks it is archived.
 * Called on a timer with the system clock and by {@code POST /api/sweep?at=} with any instant (tests, drills).
 */
public final class CapSweep {
    private final ResourceStore store;
    private final CapRule caps;
    private final VolumeLifecycle volumes;
    private final PodLifecycle pods;
    private final Duration checkpointGrace;

    /** @param checkpointGrace how long a capped run may checkpoint before its pods are terminated */
    public CapSweep(ResourceStore store, CapRule caps, VolumeLifecycle volumes, PodLifecycle pods,
                    Duration checkpointGrace) {
        this.store = store;
        this.caps = caps;
        this.volumes = volumes;
        this.pods = pods;
        this.checkpointGrace = checkpointGrace;
    }

    /** @return every event to send, in order, and one line per action taken */
    public synchronized Sweep run(Instant now) {
        List<StowageEvent> events = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        for (RunCap run : store.runCaps()) {
            if (run.triggeredAt() == null) {
                runCap(run, now, events, actions);
            }
        }
        for (ManagedPod pod : store.pods()) {
            Optional<String> due = pod.running() ? caps.due(pod, now) : Optional.empty();
            if (due.isPresent()) {
                terminate(pod, due.get(), now, events, actions);
            }
        }
        for (ManagedVolume volume : store.volumes()) {
            Optional<String> due = waiting(volume) ? caps.due(volume, now) : Optional.empty();
            if (due.isPresent()) {
                release(volume, due.get(), now, events, actions);
            }
        }
        return new Sweep(now, events, actions);
    }

    private void runCap(RunCap run, Instant now, List<StowageEvent> events, List<String> actions) {
        List<ManagedVolume> allVolumes = store.volumes();
        List<ManagedPod> allPods = store.pods();
        Optional<String> due = caps.due(run, allVolumes, allPods, now);
        if (due.isEmpty()) {
            return;
        }
        List<ManagedPod> running = allPods.stream().filter(p -> run.runId().equals(p.runId()) && p.running()).toList();
        String why = why(run, due.get(), allVolumes, allPods, now);
        if (!running.isEmpty() && run.checkpointRequestedAt() == null) {
            store.save(run.checkpointRequested(now));
            events.add(alert(run, "checkpoint-requested", why + "; checkpoint now: its " + running.size()
                    + " pod(s) are terminated at " + now.plus(checkpointGrace), now));
            actions.add("run " + run.runId() + " " + due.get() + ": checkpoint requested");
            return;
        }
        if (!running.isEmpty() && now.isBefore(run.checkpointRequestedAt().plus(checkpointGrace))) {
            return;
        }
        store.save(run.triggered(now));
        events.add(alert(run, "cap-reached", why + "; stopping it: pods terminated, volumes released through the gate",
                now));
        actions.add("run " + run.runId() + " " + due.get() + ": stopped");
        for (ManagedPod pod : running) {
            terminate(pod, "run-cap", now, events, actions);
        }
        for (ManagedVolume volume : store.volumes()) {
            if (run.runId().equals(volume.runId()) && waiting(volume)) {
                release(volume, "run-cap", now, events, actions);
            }
        }
    }

    /** @return "run R reached its … cap of … (spent … USD, … GPU hours)" */
    private String why(RunCap run, String due, List<ManagedVolume> allVolumes, List<ManagedPod> allPods, Instant now) {
        List<ManagedPod> runPods = allPods.stream().filter(p -> run.runId().equals(p.runId())).toList();
        String cap = switch (due) {
            case "ttl" -> "wall-time cap of " + run.maxSeconds() + " s";
            case "gpu-hours" -> "GPU-hour cap of " + run.capGpuHours() + " GPU hours";
            default -> "money cap of " + run.capUsd() + " USD";
        };
        return "run " + run.runId() + " reached its " + cap + " (spent "
                + caps.spent(allVolumes.stream().filter(v -> run.runId().equals(v.runId())).toList(), runPods, now)
                + " USD, " + caps.gpuHours(runPods, now) + " GPU hours)";
    }

    private void terminate(ManagedPod pod, String reason, Instant now, List<StowageEvent> events, List<String> actions) {
        LifecycleResult<ManagedPod> result = pods.terminate(pod.id(), reason, now);
        events.addAll(result.events());
        actions.add("pod " + pod.id() + " " + reason + ": " + (result.succeeded() ? "terminated"
                : "terminate failed: " + result.error()));
    }

    private void release(ManagedVolume volume, String reason, Instant now, List<StowageEvent> events,
                         List<String> actions) {
        LifecycleResult<ManagedVolume> result = volumes.release(volume.id(), reason, now);
        events.addAll(result.events());
        actions.add("volume " + volume.id() + " " + reason + ": " + (result.succeeded()
                ? result.value().state().name().toLowerCase(Locale.ROOT) : "failed: " + result.error()));
    }

    private static boolean waiting(ManagedVolume volume) {
        return volume.state() == ManagedVolume.State.ACTIVE || volume.state() == ManagedVolume.State.BLOCKED;
    }

    private static ProviderAlert alert(RunCap run, String code, String detail, Instant now) {
        return ProviderAlert.of(VolumeLifecycle.meta("run/" + run.runId(), null, now), "run", run.runId(), code,
                detail, List.of(), null);
    }

    /** What one sweep did: the events to send and one line per action. */
    public record Sweep(Instant at, List<StowageEvent> events, List<String> actions) {
    }
}
