-- Refused release requests (issue #8): one row per release.refused event, keyed by its event id. Who asked (the
-- token's configured name and role, never the token or its hash), what they asked, and why it was refused.
create table ledger_release_refusal (
    event_id varchar(255) not null,
    refusal_id varchar(255) not null,
    service varchar(255) not null,
    method varchar(16) not null,
    path text not null,
    status integer not null,
    reason varchar(255) not null,
    token_name varchar(255),
    token_role varchar(255),
    remote varchar(255),
    event_time timestamp(6) with time zone not null,
    primary key (event_id)
);
create index ledger_release_refusal_time on ledger_release_refusal (event_time);
