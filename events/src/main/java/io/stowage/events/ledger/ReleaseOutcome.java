package io.stowage.events.ledger;

import io.stowage.events.FailedCondition;

import java.util.List;

/**
 * Answer of {@code GET /api/releases/{requestId}}: what became of one release request.
 *
 * @param gate          "pending" (no decision yet), "passed" or "denied"
 * @param failed        the failed conditions when denied, else empty
 * @param released      true once volume.released was seen
 * @param failureReason reason of volume.release.failed, else null
 * @param plan          the gate's decision in full (conditions with evidence, assets, inventory), null while pending
 */
public record ReleaseOutcome(String requestId, String path, boolean dryRun, String gate,
                             List<FailedCondition> failed, boolean released, String failureReason, ReleasePlan plan) {

    /** An outcome without the plan (the shape before it was exposed). */
    public ReleaseOutcome(String requestId, String path, boolean dryRun, String gate,
                          List<FailedCondition> failed, boolean released, String failureReason) {
        this(requestId, path, dryRun, gate, failed, released, failureReason, null);
    }
}
