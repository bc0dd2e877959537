package io.stowage.cli.retention;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A retention plan for one run, computed from the ledger: every stored step with keep or expire and why, its objects
 * per store, and what expiring would free. Printed by {@code stowage retention plan} (as JSON with {@code --json}).
 *
 * @param policy          the effective policy (capsule overridden by the command line), as its fields
 * @param latestStep      the step the run's latest.json names; null when there is none
 * @param evaluatedAt     when the plan was computed (TTLs are measured at it)
 * @param steps           every stored step, ascending; steps already expired are left out
 * @param freed           per store: the keys and bytes the expired steps hold
 * @param monthlyUsdFreed the primary store's monthly cost of the freed bytes by the price table of {@code stowage cost};
 *                        null when the provider-adapter did not answer
 */
public record RetentionPlan(String experiment, String run, Map<String, Object> policy, Long latestStep,
                            Instant evaluatedAt, List<Step> steps, Map<String, StoreObjects> freed,
                            BigDecimal monthlyUsdFreed) {

    /**
     * One step's decision.
     *
     * @param decision "keep" or "expire"
     * @param keptBy   the reasons that keep it (kebab-case, e.g. latest, keep-best); empty for an expired step
     * @param stores     per store: the step's object keys and bytes
     * @param promotedTo the model revisions promoted from the step ({@code model/<model>/<revision>}); kept by
     *                   {@code promoted} while not empty
     * @param coldClass  for a kept step the policy's {@code coldAfter} puts in a cheaper storage class, that class
     *                   (e.g. STANDARD_IA); null otherwise. Reported only: nothing moves objects
     */
    public record Step(long step, String decision, List<String> keptBy, boolean verified, Map<String, Double> metrics,
                       List<String> tags, boolean pinned, Map<String, StoreObjects> stores, List<String> promotedTo,
                       String coldClass) {
        public Step {
            promotedTo = promotedTo == null ? List.of() : List.copyOf(promotedTo);
        }

        /** A step that stays in its storage class. */
        public Step(long step, String decision, List<String> keptBy, boolean verified, Map<String, Double> metrics,
                    List<String> tags, boolean pinned, Map<String, StoreObjects> stores, List<String> promotedTo) {
            this(step, decision, keptBy, verified, metrics, tags, pinned, stores, promotedTo, null);
        }

        /** A step no model revision names. */
        public Step(long step, String decision, List<String> keptBy, boolean verified, Map<String, Double> metrics,
                    List<String> tags, boolean pinned, Map<String, StoreObjects> stores) {
            this(step, decision, keptBy, verified, metrics, tags, pinned, stores, List.of());
        }

        /** @return true for an expired step */
        public boolean expire() {
            return "expire".equals(decision);
        }
    }

    /** Objects of one store: their keys (ascending) and total bytes. */
    public record StoreObjects(List<String> keys, long bytes) {
    }

    /** @return this plan with the monthly cost freed filled in */
    public RetentionPlan withMonthlyUsdFreed(BigDecimal usd) {
        return new RetentionPlan(experiment, run, policy, latestStep, evaluatedAt, steps, freed, usd);
    }

    /** @return the kept steps the policy puts in a cheaper storage class, ascending */
    public List<Step> cold() {
        return steps.stream().filter(s -> s.coldClass() != null).toList();
    }

    /** @return the expired steps, ascending */
    public List<Step> expired() {
        return steps.stream().filter(Step::expire).toList();
    }
}
