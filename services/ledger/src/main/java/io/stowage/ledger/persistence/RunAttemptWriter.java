package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.RunAttemptProjection;
import io.stowage.ledger.domain.RunAttemptRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.UnaryOperator;

/** Applies run.started, run.progress and run.finished to {@code ledger_run_attempt} in the caller's transaction. */
@ApplicationScoped
public class RunAttemptWriter {

    /** @return true for the run accounting events */
    public boolean handles(StowageEvent event) {
        return event instanceof RunStarted || event instanceof RunProgress || event instanceof RunFinished;
    }

    /** @return completes when the row change is queued in the current session */
    public Uni<Void> apply(StowageEvent event) {
        if (event instanceof RunStarted e) {
            return attempt(e.experiment(), e.run(), e.attemptId(), a -> RunAttemptProjection.apply(a, e));
        } else if (event instanceof RunProgress e) {
            return attempt(e.experiment(), e.run(), e.attemptId(), a -> RunAttemptProjection.apply(a, e));
        } else if (event instanceof RunFinished e) {
            return attempt(e.experiment(), e.run(), e.attemptId(), a -> RunAttemptProjection.apply(a, e));
        }
        return Uni.createFrom().failure(new IllegalArgumentException("not a run event: " + event.topic()));
    }

    private Uni<Void> attempt(String experiment, String run, String attemptId, UnaryOperator<RunAttemptRecord> change) {
        return LedgerRunAttempt.<LedgerRunAttempt>findById(RunAttemptRecord.keyOf(experiment, run, attemptId)).chain(row -> {
            RunAttemptRecord next = change.apply(row == null ? null : row.toRecord());
            if (row == null) {
                return new LedgerRunAttempt().set(next).persist().replaceWithVoid();
            }
            row.set(next); // a managed row is flushed when the transaction commits
            return Uni.createFrom().voidItem();
        });
    }
}
