package io.stowage.cli.retention.domain;

import java.util.List;

/**
 * Retention's decision for one step: kept when at least one reason keeps it, else expired.
 *
 * @param reasons why it is kept, in {@link KeepReason} order; empty for an expired step
 */
public record StepDecision(long step, List<KeepReason> reasons) {
    public StepDecision {
        reasons = List.copyOf(reasons);
    }

    /** @return true when no reason keeps the step */
    public boolean expired() {
        return reasons.isEmpty();
    }
}
