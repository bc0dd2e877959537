-- The gate's evidence of an asset (EvidenceQueries.deadLettersOf) asks for the asset's dead letters on the evidence
-- topics on every request. Before this index the planner had two ways, both growing with the ledger:
-- ledger_event_asset (asset_id, event_time) walks every event of the asset (each scrub pass adds an object.verified per
-- object), and ledger_event_dead_letter_seq (V35) walks every dead letter of the ledger (a flood of forged or
-- malformed records adds thousands). This partial index holds the dead letters by asset, so the lookup reads the
-- asset's dead letters and nothing else. "dead_letter = true" in the query implies the predicate (PostgreSQL reduces
-- it to "dead_letter").
create index ledger_event_dead_letter_asset on ledger_event (asset_id) where dead_letter;
