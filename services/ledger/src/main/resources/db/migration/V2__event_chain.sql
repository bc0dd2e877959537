-- Tamper evidence (issue #7): every ledger_event row gets its place in the chain (seq, 1, 2, 3, ... with no gap)
-- and chain_hash = hex SHA-256(previous row's chain_hash, or 64 zeros, + "\n" + the row's canonical JSON),
-- see EventChain. ledger_chain_head holds the last link; appends lock its one row, so the chain cannot fork.
do $$
begin
    if exists (select 1 from ledger_event) then
        raise exception 'ledger_event holds rows stored before the hash chain: rebuild this ledger from the topics';
    end if;
end $$;

create table ledger_chain_head (
    id integer not null check (id = 1),
    seq bigint not null,
    chain_hash varchar(64) not null,
    primary key (id)
);
insert into ledger_chain_head (id, seq, chain_hash) values (1, 0, repeat('0', 64));

alter table ledger_event add column seq bigint not null;
alter table ledger_event add column chain_hash varchar(64) not null;
alter table ledger_event add constraint ledger_event_seq unique (seq);
