-- Gate evidence (issue #5): the event ids that prove each gate condition. An object keeps the id of its newest
-- object.uploaded and of the object.verified events that gave its newest HEAD and FULL_READ results; an asset keeps
-- the id of the dataset.sealed / checkpoint.published that set its manifest and metadata. Rows stored before this
-- migration have null ids until the next such event (or a rebuild from the topics).
alter table ledger_object add column uploaded_event_id varchar(255);
alter table ledger_object add column head_event_id varchar(255);
alter table ledger_object add column full_read_event_id varchar(255);
alter table ledger_asset add column sealed_event_id varchar(255);
