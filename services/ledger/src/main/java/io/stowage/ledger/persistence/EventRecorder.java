package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.EventChain;
import io.stowage.ledger.domain.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Stores one event exactly once and links it into the hash chain: in one transaction it locks the chain
 * head ({@code SELECT … FOR UPDATE}), checks the event id, applies the projection change, inserts the
 * {@code ledger_event} row with the next seq and its link, and moves the head. A redelivered event changes
 * nothing; concurrent appends (other threads, other ledger instances) wait for the head, so the chain never forks.
 * {@link #recordAll} does the same for a whole batch in one transaction (one head lock, one duplicate query),
 * which is what makes ingest fast: the lock is taken once per batch, not once per event.
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

    /**
     * Appends a batch in one transaction, in list order (which is the order of the chain): locks the head once,
     * reads which event ids are already stored, then applies the projection and inserts the row of every event
     * not seen before (an id repeated inside the batch counts once). Must be called on a Vert.x context.
     *
     * @param batch events in consumption order (per partition, offsets ascending)
     * @return the rows stored now, in chain order (the rest were duplicates); fails, storing nothing, when any
     *         projection or insert fails or the chain head row is missing
     */
    public Uni<List<StoredEvent>> recordAll(List<EventAppend> batch) {
        if (batch.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<String> ids = batch.stream().map(a -> a.row().eventId()).distinct().toList();
        return Panache.withTransaction(() -> LedgerChainHead.<LedgerChainHead>findById(LedgerChainHead.ID,
                        LockModeType.PESSIMISTIC_WRITE)
                .chain(head -> LedgerEvent.<LedgerEvent>list("eventId in ?1", ids).chain(stored -> {
                    Set<String> seen = new HashSet<>();
                    stored.forEach(e -> seen.add(e.eventId));
                    List<EventAppend> fresh = new ArrayList<>();
                    for (EventAppend append : batch) {
                        if (seen.add(append.row().eventId())) {
                            fresh.add(append);
                        }
                    }
                    List<StowageEvent> events = fresh.stream().map(EventAppend::event).filter(e -> e != null).toList();
                    return projections.preload(events).chain(preloaded -> Multi.createFrom().iterable(fresh)
                            .onItem().transformToUniAndConcatenate(a -> project(a.event(), preloaded).chain(() -> append(head, a.row())))
                            .collect().last()
                            .replaceWith(fresh.stream().map(EventAppend::row).toList()));
                })));
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

    private Uni<Void> project(StowageEvent event, ProjectionWriter.Preloaded preloaded) {
        return event == null ? Uni.createFrom().voidItem() : projections.apply(event, preloaded);
    }
}
