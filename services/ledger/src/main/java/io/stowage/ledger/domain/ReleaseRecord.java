package io.stowage.ledger.domain;

import io.stowage.events.FailedCondition;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.events.ledger.ReleasePlan;

import java.util.List;

/**
 * The ledger's projection of one release request, from volume.release.requested, gate.passed,
 * gate.denied, volume.released and volume.release.failed.
 *
 * @param gate          {@link #PENDING}, {@link #PASSED} or {@link #DENIED}
 * @param failed        the failed conditions of a denial, else empty
 * @param failureReason reason of volume.release.failed, else null
 * @param plan          the gate's decision in full (conditions, evidence ids, inventory), null while pending
 */
public record ReleaseRecord(String requestId, String path, boolean dryRun, String gate,
                            List<FailedCondition> failed, boolean released, String failureReason, ReleasePlan plan) {

    /** A record without the plan. */
    public ReleaseRecord(String requestId, String path, boolean dryRun, String gate,
                         List<FailedCondition> failed, boolean released, String failureReason) {
        this(requestId, path, dryRun, gate, failed, released, failureReason, null);
    }
    public static final String PENDING = "pending";
    public static final String PASSED = "passed";
    public static final String DENIED = "denied";

    public ReleaseRecord {
        failed = List.copyOf(failed);
    }

    /** @return a request the ledger knows only by id */
    public static ReleaseRecord empty(String requestId) {
        return new ReleaseRecord(requestId, null, false, PENDING, List.of(), false, null);
    }

    /** @return the API shape */
    public ReleaseOutcome toOutcome() {
        return new ReleaseOutcome(requestId, path, dryRun, gate, failed, released, failureReason, plan);
    }
}
