-- every completed audit replay (POST /api/audit/replay): when, who asked, what it compared and whether the replayed
-- projections were identical to the live ones; read by GET /api/audit/replays and the console's /audit page
create table ledger_audit_replay (
    id bigint generated always as identity primary key,
    finished_at timestamp(6) with time zone not null,
    requested_by varchar(255) not null,
    scope text not null,
    identical boolean not null,
    live_caught_up boolean not null,
    records bigint not null,
    events bigint not null,
    differences integer not null,
    seconds double precision not null
);
create index ledger_audit_replay_finished on ledger_audit_replay (finished_at desc, id desc);
