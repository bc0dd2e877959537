package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.EventChain;
import io.stowage.ledger.domain.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

/**
 * Stores one event exactly once and links it into the hash chain: in one transaction it locks the chain
 * head ({@code SELECT … FOR UPDATE}), checks the event id, applies the projection change, inserts the
 * {@code ledger_event} row with the next seq and its link, and moves the head. A redelivered event changes
 * nothing; concurrent appends (other threads, other ledger instances) wait for the head, so the chain never forks.
 */
@ApplicationScoped
public class EventRecorder {
    private final ProjectionWriter projections;

    @Inject
    public EventRecorder(ProjectionWriter projections) {
        this.projections = projections;
    }

    /**
     * Must be called on a Vert.x context (a Kafka or HTTP handler).
     *
     * @param row   the audit row; its event id is the idempotency key
     * @param event the decoded event whose projection to apply, or null for a dead letter (row only)
     * @return true when stored now, false when the event id was already in the ledger; fails with
     *         {@link IllegalStateException} when the chain head row is missing (migration V2 not applied)
     */
    public Uni<Boolean> record(StoredEvent row, StowageEvent event) {
        return Panache.withTransaction(() -> LedgerChainHead.<LedgerChainHead>findById(LedgerChainHead.ID,
                        LockModeType.PESSIMISTIC_WRITE)
                .chain(head -> LedgerEvent.<LedgerEvent>findById(row.eventId())
                        .chain(existing -> existing != null
                                ? Uni.createFrom().item(false)
                                : project(event).chain(() -> append(head, row)).replaceWith(true))));
    }

    private static Uni<LedgerEvent> append(LedgerChainHead head, StoredEvent row) {
        if (head == null) {
            return Uni.createFrom().failure(new IllegalStateException("ledger_chain_head has no row " + LedgerChainHead.ID));
        }
        long seq = head.seq + 1;
        String link = EventChain.link(head.chainHash, seq, row);
        head.seq = seq;
        head.chainHash = link;
        return LedgerEvent.from(row, seq, link).persist();
    }

    private Uni<Void> project(StowageEvent event) {
        return event == null ? Uni.createFrom().voidItem() : projections.apply(event);
    }
}
