-- Retention's view of checkpoint steps: one row per step (asset id), from checkpoint.published (metrics, tags,
-- publish time), checkpoint.pinned (the newest pin or unpin wins) and checkpoint.expired (the objects were deleted and
-- confirmed gone). metrics and tags are JSON text: {"val_loss":0.42}, ["best"].
create table ledger_checkpoint_step (
    asset_id varchar(255) not null,
    experiment varchar(255) not null,
    run varchar(255) not null,
    step bigint not null,
    metrics text not null default '{}',
    tags text not null default '[]',
    published_at timestamp(6) with time zone,
    published_event_id varchar(255),
    file_count integer not null default 0,
    total_bytes bigint not null default 0,
    pinned boolean not null default false,
    pin_event_id varchar(255),
    pin_at timestamp(6) with time zone,
    expired_event_id varchar(255),
    expired_at timestamp(6) with time zone,
    expired_bytes bigint not null default 0,
    primary key (asset_id)
);
create index ledger_checkpoint_step_run on ledger_checkpoint_step (experiment, run, step);
