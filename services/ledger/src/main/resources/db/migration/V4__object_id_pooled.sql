-- Batch ingest (issue #7): ledger_object ids come from a sequence that steps by 50, handed out 50 at a time by
-- Hibernate's pooled optimizer (LedgerObject), so that the inserts of a batch transaction are sent together
-- instead of one INSERT ... RETURNING round trip per new object. (The identity column's own sequence cannot serve:
-- Hibernate's schema validation does not see identity sequences.) Ids already given stay; the sequence starts
-- above them. A plain INSERT without an id (tests, the replay schema) takes nextval() itself, a value that is
-- never the top of a block Hibernate uses, so the two never collide.
create sequence ledger_object_id_pool increment by 50;
select setval('ledger_object_id_pool', coalesce((select max(id) from ledger_object), 0) + 1, false);
alter table ledger_object alter column id drop identity if exists;
alter table ledger_object alter column id set default nextval('ledger_object_id_pool');
alter sequence ledger_object_id_pool owned by ledger_object.id;
