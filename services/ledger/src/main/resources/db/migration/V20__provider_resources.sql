-- Volumes and pods of the provider-adapter (issue #6): one row per resource, keyed by its asset id
-- (volume/<id> or pod/<id>), folded from volume.created/destroyed, pod.created/terminated and provider.alert.
create table ledger_resource (
    resource_key varchar(255) not null,
    kind varchar(255) not null check (kind in ('volume', 'pod')),
    resource_id varchar(255) not null,
    provider varchar(255),
    name varchar(255),
    purpose varchar(255),
    size_gb integer not null,
    cost_per_hour_usd numeric(20, 6),
    path text,
    run_id varchar(255),
    created_at timestamp(6) with time zone,
    expires_at timestamp(6) with time zone,
    cap_usd numeric(20, 6),
    state varchar(255) not null,
    ended_at timestamp(6) with time zone,
    lifetime_seconds bigint,
    cost_usd numeric(20, 6),
    end_reason varchar(255),
    release_request_id varchar(255),
    alert_count integer not null,
    last_alert_code varchar(255),
    last_alert_detail text,
    last_alert_blockers text,
    primary key (resource_key)
);
create index ledger_resource_run on ledger_resource (run_id);
