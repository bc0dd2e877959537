package io.stowage.ledger.persistence;

import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.StoredEvent;

/**
 * One event to append to the ledger: the audit row and, for a main-topic event, the decoded event whose
 * projection change goes into the same transaction.
 *
 * @param row   the audit row; its event id is the idempotency key
 * @param event the decoded event, or null for a dead letter (row only)
 */
public record EventAppend(StoredEvent row, StowageEvent event) {
}
