-- The gate's decision in full for GET /api/releases/{id} and `stowage release --dry-run`: the five conditions with
-- their evidence ids, the assets, and the inventory of what would be freed, as ReleasePlan JSON (null while pending).
alter table ledger_release add column plan text;
