package io.stowage.cli.checkpoint;

import java.util.ArrayList;
import java.util.List;

/**
 * The key-checkpoint policy: a step is a key checkpoint (its files also go to the replica
 * store, gate condition 4) when it is flagged {@code --key}, tagged {@code best}, the last step of its
 * run, or a multiple of the run's "every Nth step" setting. Pure.
 */
final class KeyCheckpoints {
    /** The tag that makes a step a key checkpoint. */
    static final String BEST = "best";

    private KeyCheckpoints() {
    }

    /**
     * @param flagged   {@code --key} was given
     * @param tags      the step's tags
     * @param last      the step is known to be the run's last ({@code --last}, or the capsule's {@code finalStep})
     * @param every     every step divisible by this is a key checkpoint; null for none (at least 1)
     * @return why the step is a key checkpoint ("flagged --key", "tagged best", "last step", "every N steps"); empty when it is not
     */
    static List<String> reasons(long step, boolean flagged, List<String> tags, boolean last, Long every) {
        List<String> reasons = new ArrayList<>();
        if (flagged) {
            reasons.add("flagged --key");
        }
        if (tags.contains(BEST)) {
            reasons.add("tagged best");
        }
        if (last) {
            reasons.add("last step");
        }
        if (every != null && every > 0 && step % every == 0) {
            reasons.add("every " + every + " steps");
        }
        return List.copyOf(reasons);
    }
}
