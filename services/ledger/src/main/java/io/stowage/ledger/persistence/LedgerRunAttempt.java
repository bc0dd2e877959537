package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.ledger.domain.RunAttemptRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

import java.time.Instant;

/** Table {@code ledger_run_attempt} (run accounting migration): one attempt of a training run, from a {@link RunAttemptRecord}. */
@Entity
@Table(name = "ledger_run_attempt", indexes = @Index(name = "ledger_run_attempt_run", columnList = "experiment, run"))
public class LedgerRunAttempt extends PanacheEntityBase {
    @Id
    @Column(name = "attempt_key")
    public String key;
    @Column(name = "experiment", nullable = false)
    public String experiment;
    @Column(name = "run", nullable = false)
    public String run;
    @Column(name = "attempt_id", nullable = false)
    public String attemptId;
    @Column(name = "resources")
    public String resources;
    @Column(name = "resumed_from_step")
    public Long resumedFromStep;
    @Column(name = "started_at")
    public Instant startedAt;
    @Column(name = "last_event_at")
    public Instant lastEventAt;
    @Column(name = "step", nullable = false)
    public long step;
    @Column(name = "wall_seconds", nullable = false)
    public double wallSeconds;
    @Column(name = "training_seconds", nullable = false)
    public double trainingSeconds;
    @Column(name = "data_wait_seconds", nullable = false)
    public double dataWaitSeconds;
    @Column(name = "checkpoint_seconds", nullable = false)
    public double checkpointSeconds;
    @Column(name = "outcome")
    public String outcome;
    @Column(name = "reason", columnDefinition = "text")
    public String reason;
    @Column(name = "finished_at")
    public Instant finishedAt;

    /** @return this row as a domain record */
    public RunAttemptRecord toRecord() {
        return new RunAttemptRecord(key, experiment, run, attemptId, resources, resumedFromStep, startedAt, lastEventAt,
                step, wallSeconds, trainingSeconds, dataWaitSeconds, checkpointSeconds, outcome, reason, finishedAt);
    }

    /** Copies every field of {@code r} into this row. */
    public LedgerRunAttempt set(RunAttemptRecord r) {
        key = r.key();
        experiment = r.experiment();
        run = r.run();
        attemptId = r.attemptId();
        resources = r.resources();
        resumedFromStep = r.resumedFromStep();
        startedAt = r.startedAt();
        lastEventAt = r.lastEventAt();
        step = r.step();
        wallSeconds = r.wallSeconds();
        trainingSeconds = r.trainingSeconds();
        dataWaitSeconds = r.dataWaitSeconds();
        checkpointSeconds = r.checkpointSeconds();
        outcome = r.outcome();
        reason = r.reason();
        finishedAt = r.finishedAt();
        return this;
    }
}
