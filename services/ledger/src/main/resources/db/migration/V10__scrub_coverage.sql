-- Rolling scrub (issue #5, verifier): the scrub asks for the objects re-read least recently
-- (GET /api/coverage/due) and the coverage sums the FULL_READ results of a period (GET /api/coverage).
-- Both are queries over existing tables; these indexes keep them off full scans.
create index ledger_object_last_full_read on ledger_object (full_read_verified_at nulls first, uploaded_at, object_key);
create index ledger_event_topic_time on ledger_event (topic, event_time);
