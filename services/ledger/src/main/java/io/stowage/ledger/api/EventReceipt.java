package io.stowage.ledger.api;

/** Answer of {@code GET /api/events/{eventId}}: proof that the ledger stored the event. */
public record EventReceipt(String eventId, String topic, String assetId) {
}
