package io.stowage.provideradapter.domain.retention;

import io.stowage.events.RetentionDecided;

import java.time.Instant;

/**
 * A run's standing retention policy, applied by the periodic sweep ({@link RetentionSweep}) without an operator: set
 * by an operator ({@code stowage retention schedule}, kept in the state directory) or stated by the run's capsule and
 * carried by its newest checkpoint publish ({@link #ofCapsule}, read from the ledger at each pass). An operator's
 * schedule overrides the capsule's.
 *
 * @param experiment  the run's experiment
 * @param run         the run
 * @param policy      the policy as {@code retention apply} sends it (the capsule's {@code retention} overridden by the
 *                    command line); at least one rule
 * @param maxFraction the most of the run's stored steps one pass may expire, in (0, 1]: a pass whose decision would
 *                    expire more than {@code floor(maxFraction × stored steps)} deletes nothing and is held for an
 *                    operator's {@code retention apply}
 * @param scheduledBy the operator token's name that set it; for a capsule's, "the capsule at step N"
 * @param scheduledAt when it was set; for a capsule's, when step N was published
 * @param source      {@value #OPERATOR} or {@value #CAPSULE}; null (a file written before the field) is {@value #OPERATOR}
 */
public record RetentionSchedule(String experiment, String run, RetentionDecided.Policy policy, double maxFraction,
                                String scheduledBy, Instant scheduledAt, String source) {

    /** The per-pass cap when a schedule names none: half of the run's stored steps. */
    public static final double DEFAULT_MAX_FRACTION = 0.5;
    /** {@link #source()} of a schedule an operator set. */
    public static final String OPERATOR = "operator";
    /** {@link #source()} of a policy the run's capsule stated. */
    public static final String CAPSULE = "capsule";

    /** Absent source is an operator's. */
    public RetentionSchedule {
        source = source == null ? OPERATOR : source;
    }

    /** An operator's schedule. */
    public RetentionSchedule(String experiment, String run, RetentionDecided.Policy policy, double maxFraction,
                             String scheduledBy, Instant scheduledAt) {
        this(experiment, run, policy, maxFraction, scheduledBy, scheduledAt, OPERATOR);
    }

    /**
     * @param p a run's policy as its newest publish carried it from the capsule (ledger {@code GET /api/checkpoints/policies})
     * @return its schedule, with the default cap {@link #DEFAULT_MAX_FRACTION}
     */
    public static RetentionSchedule ofCapsule(io.stowage.events.ledger.RunRetentionPolicy p) {
        return new RetentionSchedule(p.experiment(), p.run(), p.policy(), DEFAULT_MAX_FRACTION,
                "the capsule at step " + p.step(), p.publishedAt(), CAPSULE);
    }

    /** @return who asks for the sweep's decisions of this run, as {@code retention.decided} records it */
    public String requestedBy() {
        return CAPSULE.equals(source) ? "sweep (policy of " + scheduledBy + ")" : "sweep (scheduled by " + scheduledBy + ")";
    }

    /**
     * @param storedSteps the steps the run has in the store now (the plan's steps)
     * @return the most steps one pass may expire: {@code floor(maxFraction × storedSteps)}
     */
    public int cap(int storedSteps) {
        return (int) Math.floor(maxFraction * storedSteps + 1e-9);
    }

    /** @return "experiment/run" */
    public String runName() {
        return experiment + "/" + run;
    }
}
