-- checkpoint.published carries the retention policy the run's capsule stated at publish (JSON, the event's field
-- names); the newest published step's policy is the run's policy, which the provider-adapter's periodic sweep applies.
-- Null: the capsule stated none, or the step was published before the field existed.
alter table ledger_checkpoint_step add column retention text;
