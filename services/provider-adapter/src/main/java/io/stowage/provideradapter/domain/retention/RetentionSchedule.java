package io.stowage.provideradapter.domain.retention;

import io.stowage.events.RetentionDecided;

import java.time.Instant;

/**
 * A run's standing retention policy, applied by the periodic sweep ({@link RetentionSweep}) without an operator.
 *
 * @param experiment  the run's experiment
 * @param run         the run
 * @param policy      the policy as {@code retention apply} sends it (the capsule's {@code retention} overridden by the
 *                    command line); at least one rule
 * @param maxFraction the most of the run's stored steps one pass may expire, in (0, 1]: a pass whose decision would
 *                    expire more than {@code floor(maxFraction × stored steps)} deletes nothing and is held for an
 *                    operator's {@code retention apply}
 * @param scheduledBy the operator token's name that set it
 * @param scheduledAt when it was set
 */
public record RetentionSchedule(String experiment, String run, RetentionDecided.Policy policy, double maxFraction,
                                String scheduledBy, Instant scheduledAt) {

    /** The per-pass cap when a schedule names none: half of the run's stored steps. */
    public static final double DEFAULT_MAX_FRACTION = 0.5;

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
