-- Run accounting: one row per attempt of a training run (a start, or a resume after a stop, preemption or failure),
-- folded from run.started, run.progress (the newest wins) and run.finished (final). Times are the trainer's seconds,
-- cumulative within the attempt. The run's checkpoint overhead and storage come from ledger_checkpoint_step and
-- ledger_object; the money lost to a preemption or failure from the hourly cost of the pods in ledger_resource
-- whose run_id is the attempt's resources.
create table ledger_run_attempt (
    attempt_key varchar(600) not null,
    experiment varchar(255) not null,
    run varchar(255) not null,
    attempt_id varchar(255) not null,
    resources varchar(255),
    resumed_from_step bigint,
    started_at timestamp(6) with time zone,
    last_event_at timestamp(6) with time zone,
    step bigint not null default 0,
    wall_seconds double precision not null default 0,
    training_seconds double precision not null default 0,
    data_wait_seconds double precision not null default 0,
    checkpoint_seconds double precision not null default 0,
    outcome varchar(255),
    reason text,
    finished_at timestamp(6) with time zone,
    primary key (attempt_key)
);
create index ledger_run_attempt_run on ledger_run_attempt (experiment, run);
