package io.stowage.ledger.domain;

import io.stowage.events.GateDenied;
import io.stowage.events.GatePassed;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import io.stowage.events.ledger.ReleasePlan;

import java.util.List;

/**
 * Folds the events of one release request into a {@link ReleaseRecord}. They travel on five
 * topics and may be consumed in any order: the request never resets a decision already seen.
 */
public final class ReleaseProjection {
    private ReleaseProjection() {
    }

    /** @return the request id of a release event, or null when {@code event} is not about a release */
    public static String requestIdOf(StowageEvent event) {
        if (event instanceof ReleaseRequested e) {
            return e.requestId();
        } else if (event instanceof GatePassed e) {
            return e.requestId();
        } else if (event instanceof GateDenied e) {
            return e.requestId();
        } else if (event instanceof VolumeReleased e) {
            return e.requestId();
        } else if (event instanceof VolumeReleaseFailed e) {
            return e.requestId();
        }
        return null;
    }

    /**
     * @param current the stored request, or null when unseen
     * @throws IllegalArgumentException when {@code event} is not a release event
     */
    public static ReleaseRecord apply(ReleaseRecord current, StowageEvent event) {
        String requestId = requestIdOf(event);
        if (requestId == null) {
            throw new IllegalArgumentException("not a release event: " + event.topic());
        }
        ReleaseRecord r = current != null ? current : ReleaseRecord.empty(requestId);
        if (event instanceof ReleaseRequested e) {
            return new ReleaseRecord(r.requestId(), e.path(), e.dryRun(), r.gate(), r.failed(), r.released(),
                    r.failureReason(), r.plan());
        } else if (event instanceof GatePassed e) {
            return new ReleaseRecord(r.requestId(), e.path(), e.dryRun(), ReleaseRecord.PASSED, List.of(),
                    r.released(), r.failureReason(), ReleasePlan.of(e));
        } else if (event instanceof GateDenied e) {
            return new ReleaseRecord(r.requestId(), e.path(), e.dryRun(), ReleaseRecord.DENIED, e.failed(),
                    r.released(), r.failureReason(), ReleasePlan.of(e));
        } else if (event instanceof VolumeReleased e) {
            return new ReleaseRecord(r.requestId(), or(r.path(), e.path()), r.dryRun(), r.gate(), r.failed(), true,
                    r.failureReason(), r.plan());
        }
        VolumeReleaseFailed e = (VolumeReleaseFailed) event;
        return new ReleaseRecord(r.requestId(), or(r.path(), e.path()), r.dryRun(), r.gate(), r.failed(),
                r.released(), e.reason(), r.plan());
    }

    private static String or(String value, String fallback) {
        return value != null ? value : fallback;
    }
}
