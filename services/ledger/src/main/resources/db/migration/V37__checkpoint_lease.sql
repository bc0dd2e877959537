-- A fetch for a resume leases its step (checkpoint.pinned with leaseUntil): retention keeps the step until the latest
-- lease end. Null: never leased.
alter table ledger_checkpoint_step add column lease_until timestamp(6) with time zone;
