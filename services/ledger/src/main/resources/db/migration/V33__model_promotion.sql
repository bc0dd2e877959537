-- Model promotions: one row per model revision published from a checkpoint step (model.published with
-- fromCheckpoint), so that a step lists the revisions that name it and a revision the step it came from. A revision
-- never changes, so the first model.published of a revision sets its row and a later one leaves it as it is.
create table ledger_model_promotion (
    model_asset_id varchar(255) not null,
    checkpoint_asset_id varchar(255) not null,
    event_id varchar(255) not null,
    promoted_at timestamp(6) with time zone not null,
    primary key (model_asset_id)
);
create index ledger_model_promotion_checkpoint on ledger_model_promotion (checkpoint_asset_id);
