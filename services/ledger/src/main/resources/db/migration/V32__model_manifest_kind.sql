-- Model revisions: the model manifest (models/<model>/<revision>/manifest.json) is an object kind of its own.
alter table ledger_object drop constraint if exists ledger_object_kind_check;
alter table ledger_object add constraint ledger_object_kind_check
    check (kind in ('SHARD','MEMBERS','DATASET_MANIFEST','CHECKPOINT_FILE','MODEL_FILE','MODEL_MANIFEST','ARCHIVE'));
