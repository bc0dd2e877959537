-- Queries of issue #7: the history of a correlation id in chain order (GET /api/events?correlationId=), and the
-- gate's "assets under this directory" (local_root LIKE 'prefix%'), which a plain btree index cannot serve in a
-- non-C collation: text_pattern_ops can.
create index ledger_event_correlation on ledger_event (correlation_id, seq);
create index ledger_asset_local_root_prefix on ledger_asset (local_root text_pattern_ops);
-- the asset listing pages by asset id; the primary key serves it. Copies of one key across stores:
create index ledger_object_key on ledger_object (object_key);
