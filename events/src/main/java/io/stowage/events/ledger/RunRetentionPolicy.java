package io.stowage.events.ledger;

import io.stowage.events.RetentionDecided;

import java.time.Instant;

/**
 * One element of {@code GET /api/checkpoints/policies}: a run whose newest published checkpoint step carried a
 * retention policy from the run's capsule. The newest step is the one with the latest publish time (the highest
 * step number among equal times), so removing {@code retention} from the capsule takes the run off the list at its
 * next publish.
 *
 * @param experiment  the run's experiment
 * @param run         the run
 * @param step        the step whose publish carried the policy
 * @param publishedAt that publish's event time
 * @param policy      the policy in the capsule's field names; never null
 */
public record RunRetentionPolicy(String experiment, String run, long step, Instant publishedAt,
                                 RetentionDecided.Policy policy) {
}
