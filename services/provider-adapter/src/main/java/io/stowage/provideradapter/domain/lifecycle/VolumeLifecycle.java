package io.stowage.provideradapter.domain.lifecycle;

import io.stowage.events.AssetIds;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.ProviderActionFailed;
import io.stowage.events.ProviderAlert;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeCreated;
import io.stowage.events.VolumeDestroyed;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.provideradapter.domain.resource.ComputeProvider;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.ProvisionedVolume;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.resource.VolumeSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A volume's life: created on the provider ({@code volume.created}); released through the gate when its time to
 * live or cap is reached or an operator asks ({@code volume.release.requested} for its directory, the gate decides);
 * destroyed on the provider only after the provider-adapter's own {@code volume.released} for that request
 * ({@code volume.destroyed}), or at once when its directory holds no file and the provider says that directory is
 * the volume ({@link ComputeProvider#notSeen}); a missing directory, one that lost its marker, or an unmounted
 * mount point leaves it BLOCKED with a {@code provider.alert} "volume-not-seen", never destroyed. A {@code gate.denied} or
 * {@code volume.release.failed} for the request leaves it BLOCKED with a {@code provider.alert} naming what blocks
 * it; nothing is destroyed. Provider failures become {@code provider.action.failed}. Every step is idempotent.
 */
public final class VolumeLifecycle {
    private final ComputeProvider provider;
    private final ResourceStore store;
    private final CostCalculator costs;
    private final String requestedBy;

    /** @param requestedBy the name in the release requests it sends, e.g. "provider-adapter" */
    public VolumeLifecycle(ComputeProvider provider, ResourceStore store, CostCalculator costs, String requestedBy) {
        this.provider = provider;
        this.store = store;
        this.costs = costs;
        this.requestedBy = requestedBy;
    }

    /** @return the new volume and its volume.created, or the failure and its provider.action.failed */
    public synchronized LifecycleResult<ManagedVolume> create(VolumeSpec spec, Instant now) {
        ProvisionedVolume made;
        try {
            made = provider.createVolume(spec);
        } catch (ProviderException e) {
            return LifecycleResult.failed(null, e.getMessage(),
                    List.of(actionFailed("create-volume", spec.name(), e, now)));
        }
        Instant expiresAt = spec.ttl().isZero() ? null : now.plus(spec.ttl());
        ManagedVolume volume = new ManagedVolume(made.id(), provider.name(), spec.name(), spec.purpose(),
                made.sizeGb() > 0 ? made.sizeGb() : spec.sizeGb(), made.path(), now, expiresAt, spec.capUsd(),
                spec.runId(), ManagedVolume.State.ACTIVE, null, null, List.of(), null);
        store.save(volume);
        return LifecycleResult.ok(volume, List.of(VolumeCreated.of(meta(AssetIds.volume(volume.id()), null, now),
                volume.id(), volume.provider(), volume.name(), volume.purpose(), volume.sizeGb(), volume.path(),
                spec.ttl().getSeconds(), expiresAt, spec.capUsd(), spec.runId())));
    }

    /**
     * Asks the gate to release the volume's directory (or destroys it at once when it holds no file).
     *
     * @param reason "ttl", "cap", "run-cap" or "operator"; for all but "operator" a provider.alert says so
     * @return the volume as it is now; a volume already destroyed or already waiting for the gate emits nothing
     */
    public synchronized LifecycleResult<ManagedVolume> release(String volumeId, String reason, Instant now) {
        Optional<ManagedVolume> found = store.volume(volumeId);
        if (found.isEmpty()) {
            return LifecycleResult.failed(null, "unknown volume " + volumeId, List.of());
        }
        ManagedVolume volume = found.get();
        if (!volume.exists() || volume.state() == ManagedVolume.State.RELEASING) {
            return LifecycleResult.ok(volume, List.of());
        }
        List<StowageEvent> events = new ArrayList<>();
        if (!"operator".equals(reason)) {
            events.add(alert(volume, reason + "-reached", "volume " + volume.id() + " reached "
                    + ("ttl".equals(reason) ? "its time to live" : "cap".equals(reason) ? "its money cap"
                    : "its run's cap") + " at " + now + "; releasing "
                    + volume.path() + " through the gate", List.of(), null, now));
        }
        Optional<String> notSeen = provider.notSeen(volume.id(), Path.of(volume.path()));
        if (notSeen.isPresent()) {
            ManagedVolume blocked = volume.blocked(List.of("volume not seen: " + notSeen.get()));
            store.save(blocked);
            events.add(alert(blocked, "volume-not-seen", "release of " + volume.path() + " (" + reason + ") blocked: "
                    + notSeen.get() + "; nothing destroyed", blocked.blockers(), null, now));
            return LifecycleResult.ok(blocked, events);
        }
        if (holdsNoFile(Path.of(volume.path()))) {
            LifecycleResult<ManagedVolume> destroyed = destroy(volume, reason, null, now);
            events.addAll(destroyed.events());
            return new LifecycleResult<>(destroyed.value(), events, destroyed.error());
        }
        String requestId = UUID.randomUUID().toString();
        ManagedVolume releasing = volume.releasing(requestId, reason);
        store.save(releasing);
        events.add(ReleaseRequested.of(meta(requestId, null, now), requestId, volume.path(), false, requestedBy));
        return LifecycleResult.ok(releasing, events);
    }

    /** The gate denied a release this lifecycle asked for: BLOCKED, and an alert naming each failed condition. */
    public synchronized LifecycleResult<ManagedVolume> onGateDenied(GateDenied denied, Instant now) {
        List<String> blockers = denied.failed().stream().map(VolumeLifecycle::line).toList();
        return block(denied.requestId(), denied.dryRun(), blockers, denied, now);
    }

    /** The provider-adapter refused an approved release: BLOCKED, and an alert with its reason. */
    public synchronized LifecycleResult<ManagedVolume> onReleaseFailed(VolumeReleaseFailed failed, Instant now) {
        return block(failed.requestId(), false, List.of("release failed: " + failed.reason()), failed, now);
    }

    /** The volume's directory was released for the request this lifecycle sent: destroy the volume. */
    public synchronized LifecycleResult<ManagedVolume> onVolumeReleased(VolumeReleased released, Instant now) {
        Optional<ManagedVolume> volume = waitingFor(released.requestId());
        if (volume.isEmpty()) {
            return LifecycleResult.ok(null, List.of());
        }
        return destroy(volume.get(), volume.get().releaseReason(), released.requestId(), now);
    }

    private LifecycleResult<ManagedVolume> block(String requestId, boolean dryRun, List<String> blockers,
                                                 StowageEvent cause, Instant now) {
        Optional<ManagedVolume> volume = dryRun ? Optional.empty() : waitingFor(requestId);
        if (volume.isEmpty()) {
            return LifecycleResult.ok(null, List.of());
        }
        ManagedVolume blocked = volume.get().blocked(blockers);
        store.save(blocked);
        return LifecycleResult.ok(blocked, List.of(alert(blocked, "release-blocked", "release of " + blocked.path()
                + " (" + blocked.releaseReason() + ") blocked: " + blockers.size() + " reason(s); nothing destroyed",
                blockers, cause, now)));
    }

    private LifecycleResult<ManagedVolume> destroy(ManagedVolume volume, String reason, String requestId, Instant now) {
        try {
            provider.destroyVolume(volume.id());
        } catch (ProviderException e) {
            ManagedVolume blocked = volume.blocked(List.of("provider: " + e.getMessage()));
            store.save(blocked);
            return LifecycleResult.failed(blocked, e.getMessage(),
                    List.of(actionFailed("destroy-volume", volume.id(), e, now)));
        }
        ManagedVolume destroyed = volume.destroyed(now, reason);
        store.save(destroyed);
        Duration lifetime = Duration.between(volume.createdAt(), now);
        return LifecycleResult.ok(destroyed, List.of(VolumeDestroyed.of(meta(AssetIds.volume(volume.id()), null, now),
                volume.id(), volume.provider(), volume.sizeGb(), Math.max(0, lifetime.getSeconds()),
                costs.volumeCost(volume.sizeGb(), lifetime), reason, requestId)));
    }

    private Optional<ManagedVolume> waitingFor(String requestId) {
        return store.volumes().stream().filter(v -> v.state() == ManagedVolume.State.RELEASING
                && requestId.equals(v.releaseRequestId())).findFirst();
    }

    private ProviderAlert alert(ManagedVolume volume, String code, String detail, List<String> blockers,
                                StowageEvent cause, Instant now) {
        return ProviderAlert.of(meta(AssetIds.volume(volume.id()), cause, now), "volume", volume.id(), code, detail,
                blockers, volume.releaseRequestId());
    }

    private ProviderActionFailed actionFailed(String action, String id, ProviderException e, Instant now) {
        return ProviderActionFailed.of(meta(AssetIds.volume(id), null, now), action, "volume", id, provider.name(),
                e.httpStatus(), e.permanent(), e.getMessage());
    }

    static EventMeta meta(String correlationId, StowageEvent cause, Instant now) {
        return new EventMeta(UUID.randomUUID().toString(), EventMeta.CURRENT_VERSION, now,
                cause == null ? correlationId : cause.meta().correlationId(),
                cause == null ? null : cause.meta().eventId());
    }

    private static String line(FailedCondition failed) {
        return failed.condition() + " " + failed.code() + ": " + failed.detail();
    }

    // a directory holding only empty directories has nothing the gate must account for, once the provider said it
    // is the volume (notSeen): a missing or unmounted directory never counts as an empty volume
    private static boolean holdsNoFile(Path dir) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            return all.allMatch(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            return false;
        }
    }
}
