package io.stowage.ledger.domain;

import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.RunTimes;

import java.time.Instant;

/**
 * Folds run.started, run.progress and run.finished into a {@link RunAttemptRecord}. A start fills what the attempt
 * is; a progress older than the newest event applied changes nothing (redelivery and reordering are harmless); a
 * finish is final: nothing after it changes the times or the outcome.
 */
public final class RunAttemptProjection {
    private RunAttemptProjection() {
    }

    /** @param current the stored attempt, or null when the ledger has not seen it yet */
    public static RunAttemptRecord apply(RunAttemptRecord current, RunStarted e) {
        RunAttemptRecord a = orEmpty(current, e.experiment(), e.run(), e.attemptId());
        if (a.startedAt() != null) {
            return a;
        }
        return new RunAttemptRecord(a.key(), a.experiment(), a.run(), a.attemptId(), e.resources(), e.resumedFromStep(),
                e.meta().time(), later(a.lastEventAt(), e.meta().time()), a.step(), a.wallSeconds(), a.trainingSeconds(),
                a.dataWaitSeconds(), a.checkpointSeconds(), a.outcome(), a.reason(), a.finishedAt());
    }

    /** @param current the stored attempt, or null when the ledger has not seen it yet */
    public static RunAttemptRecord apply(RunAttemptRecord current, RunProgress e) {
        RunAttemptRecord a = orEmpty(current, e.experiment(), e.run(), e.attemptId());
        if (a.outcome() != null || a.lastEventAt() != null && e.meta().time().isBefore(a.lastEventAt())) {
            return a;
        }
        return withTimes(a, e.step(), e.times(), e.meta().time(), null, null, null);
    }

    /** @param current the stored attempt, or null when the ledger has not seen it yet */
    public static RunAttemptRecord apply(RunAttemptRecord current, RunFinished e) {
        RunAttemptRecord a = orEmpty(current, e.experiment(), e.run(), e.attemptId());
        if (a.outcome() != null) {
            return a;
        }
        return withTimes(a, e.step(), e.times(), later(a.lastEventAt(), e.meta().time()), e.outcome(), e.reason(),
                e.meta().time());
    }

    private static RunAttemptRecord withTimes(RunAttemptRecord a, long step, RunTimes t, Instant at, String outcome,
                                              String reason, Instant finishedAt) {
        return new RunAttemptRecord(a.key(), a.experiment(), a.run(), a.attemptId(), a.resources(), a.resumedFromStep(),
                a.startedAt(), at, step, t.wallSeconds(), t.trainingSeconds(), t.dataWaitSeconds(), t.checkpointSeconds(),
                outcome, reason, finishedAt);
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }

    private static RunAttemptRecord orEmpty(RunAttemptRecord current, String experiment, String run, String attemptId) {
        return current != null ? current : RunAttemptRecord.empty(experiment, run, attemptId);
    }
}
