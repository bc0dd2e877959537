package io.stowage.ledger.domain;

import io.stowage.events.ledger.ReleaseOutcome;

import java.time.Instant;

/**
 * One release request as {@code GET /api/releases} lists it: when and by whom it was asked, and what became of it.
 *
 * @param requestedAt time of its {@code volume.release.requested} event; null when the ledger holds no such event
 * @param requestedBy the token name the request was sent in; null when unknown
 * @param outcome     the outcome as {@code GET /api/releases/{requestId}} answers it
 */
public record ReleaseListing(Instant requestedAt, String requestedBy, ReleaseOutcome outcome) {
}
