package io.stowage.ledger.domain;

import java.time.Instant;

/**
 * The ledger's view of one attempt of a training run, from run.started, run.progress and run.finished. Times are the
 * trainer's seconds, cumulative within the attempt.
 *
 * @param key             {@code <experiment>/<run>/<attemptId>}
 * @param resources       the provider run id of the attempt's pods and volumes, null when unknown
 * @param resumedFromStep the step the attempt resumed from, null for a first start
 * @param startedAt       the run.started event's time, null while only progress was seen
 * @param lastEventAt     time of the newest event applied (orders progress: an older one changes nothing)
 * @param outcome         the run.finished outcome, null while the attempt has not finished
 * @param finishedAt      the run.finished event's time, null before
 */
public record RunAttemptRecord(String key, String experiment, String run, String attemptId, String resources,
                               Long resumedFromStep, Instant startedAt, Instant lastEventAt, long step,
                               double wallSeconds, double trainingSeconds, double dataWaitSeconds,
                               double checkpointSeconds, String outcome, String reason, Instant finishedAt) {

    /** @return the key of an attempt */
    public static String keyOf(String experiment, String run, String attemptId) {
        return experiment + "/" + run + "/" + attemptId;
    }

    /** @return an attempt the ledger has seen nothing of yet */
    public static RunAttemptRecord empty(String experiment, String run, String attemptId) {
        return new RunAttemptRecord(keyOf(experiment, run, attemptId), experiment, run, attemptId, null, null, null,
                null, 0, 0, 0, 0, 0, null, null, null);
    }
}
