package io.stowage.events.ledger;

/**
 * A dead letter the ledger holds for an asset on one of its evidence topics, not yet outweighed: a record about the
 * asset that no service could read or store, so the ledger may lack a result of it (a {@code MISMATCH} among them).
 * Part of the ledger's HTTP query API ({@code GET /api/evidence}, {@code GET /api/assets}).
 *
 * @param eventId the dead-letter row's event id in the ledger ({@code dlq:<ce_id>} or {@code dlq:<topic>:<partition>:<offset>})
 * @param topic   the dead-letter topic it was read from, e.g. {@code object.verified.dlq}
 * @param reason  the reason the sender gave (header {@code dead-letter-reason}), may be null
 */
public record DeadLetterNote(String eventId, String topic, String reason) {
}
