package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Stores one event exactly once: the duplicate check on the event id, the projection change and the
 * {@code ledger_event} row happen in one transaction, so a redelivered event changes nothing.
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
     * @return true when stored now, false when the event id was already in the ledger
     */
    public Uni<Boolean> record(StoredEvent row, StowageEvent event) {
        return Panache.withTransaction(() -> LedgerEvent.<LedgerEvent>findById(row.eventId())
                .chain(existing -> existing != null
                        ? Uni.createFrom().item(false)
                        : project(event).chain(() -> LedgerEvent.from(row).persist()).replaceWith(true)));
    }

    private Uni<Void> project(StowageEvent event) {
        return event == null ? Uni.createFrom().voidItem() : projections.apply(event);
    }
}
