package io.stowage.events.ledger;

/**
 * Answer of {@code GET /api/status}: counts from the ledger's tables.
 *
 * @param events        stored events (unique event ids)
 * @param assets        known assets
 * @param objects       known objects (per store)
 * @param objectsVerified objects whose newest HEAD is OK
 * @param objectsFullRead objects whose newest full re-read is OK
 * @param gatesPassed   gate.passed events
 * @param gatesDenied   gate.denied events
 * @param releases      volume.released events
 * @param deadLetters   records stored from dead-letter topics
 */
public record LedgerStatus(long events, long assets, long objects, long objectsVerified, long objectsFullRead,
                           long gatesPassed, long gatesDenied, long releases, long deadLetters) {
}
