package io.stowage.ledger.domain;

import io.stowage.events.PodCreated;
import io.stowage.events.PodTerminated;
import io.stowage.events.ProviderActionFailed;
import io.stowage.events.ProviderAlert;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeCreated;
import io.stowage.events.VolumeDestroyed;

/**
 * Folds the provider-adapter's volume and pod events into {@link ResourceRecord}s. Events of one resource share its
 * Kafka key and so arrive in order, but a creation seen after its end (a replay from another partition order) never
 * undoes the end: the end fields are kept. {@code provider.action.failed} is stored as an event only.
 */
public final class ResourceProjection {
    private ResourceProjection() {
    }

    /** @return true for the events this projection (or the event table alone) takes: the provider-adapter's six */
    public static boolean handles(StowageEvent event) {
        return event instanceof VolumeCreated || event instanceof VolumeDestroyed || event instanceof PodCreated
                || event instanceof PodTerminated || event instanceof ProviderAlert
                || event instanceof ProviderActionFailed;
    }

    /** @return the row key of the resource {@code event} changes, null when it changes none (action failures, run alerts) */
    public static String keyOf(StowageEvent event) {
        if (event instanceof ProviderActionFailed) {
            return null;
        }
        if (event instanceof ProviderAlert a && !"volume".equals(a.resourceKind()) && !"pod".equals(a.resourceKind())) {
            return null;
        }
        return handles(event) ? event.assetId() : null;
    }

    /**
     * @param current the stored row, null when unseen
     * @throws IllegalArgumentException for an event with no row ({@link #keyOf} null)
     */
    public static ResourceRecord apply(ResourceRecord current, StowageEvent event) {
        String key = keyOf(event);
        if (key == null) {
            throw new IllegalArgumentException("no resource row for " + event.topic());
        }
        String kind = key.substring(0, key.indexOf('/'));
        ResourceRecord r = current != null ? current : ResourceRecord.unknown(key, kind, key.substring(kind.length() + 1));
        boolean ended = r.endedAt() != null;
        if (event instanceof VolumeCreated e) {
            return new ResourceRecord(key, kind, r.id(), e.provider(), e.name(), e.purpose(), e.sizeGb(), null,
                    e.path(), e.runId(), e.meta().time(), e.expiresAt(), e.capUsd(), ended ? r.state() : "ACTIVE",
                    r.endedAt(), r.lifetimeSeconds(), r.costUsd(), r.endReason(), r.releaseRequestId(), r.alertCount(),
                    r.lastAlertCode(), r.lastAlertDetail(), r.lastAlertBlockers());
        } else if (event instanceof PodCreated e) {
            return new ResourceRecord(key, kind, r.id(), e.provider(), e.name(), null, 0, e.costPerHourUsd(),
                    null, e.runId(), e.meta().time(), e.expiresAt(), e.capUsd(), ended ? r.state() : "ACTIVE",
                    r.endedAt(), r.lifetimeSeconds(), r.costUsd(), r.endReason(), r.releaseRequestId(), r.alertCount(),
                    r.lastAlertCode(), r.lastAlertDetail(), r.lastAlertBlockers());
        } else if (event instanceof VolumeDestroyed e) {
            return new ResourceRecord(key, kind, r.id(), e.provider(), r.name(), r.purpose(), e.sizeGb(), null,
                    r.path(), r.runId(), r.createdAt(), r.expiresAt(), r.capUsd(), "DESTROYED", e.meta().time(),
                    e.lifetimeSeconds(), e.costUsd(), e.reason(), e.releaseRequestId(), r.alertCount(),
                    r.lastAlertCode(), r.lastAlertDetail(), r.lastAlertBlockers());
        } else if (event instanceof PodTerminated e) {
            return new ResourceRecord(key, kind, r.id(), e.provider(), r.name(), null, 0, r.costPerHourUsd(),
                    null, r.runId(), r.createdAt(), r.expiresAt(), r.capUsd(), "TERMINATED", e.meta().time(),
                    e.lifetimeSeconds(), e.costUsd(), e.reason(), null, r.alertCount(), r.lastAlertCode(),
                    r.lastAlertDetail(), r.lastAlertBlockers());
        }
        ProviderAlert a = (ProviderAlert) event;
        return new ResourceRecord(key, kind, r.id(), r.provider(), r.name(), r.purpose(), r.sizeGb(),
                r.costPerHourUsd(), r.path(), r.runId(), r.createdAt(), r.expiresAt(), r.capUsd(), r.state(),
                r.endedAt(), r.lifetimeSeconds(), r.costUsd(), r.endReason(),
                a.requestId() != null ? a.requestId() : r.releaseRequestId(), r.alertCount() + 1, a.code(), a.detail(),
                a.blockers());
    }
}
