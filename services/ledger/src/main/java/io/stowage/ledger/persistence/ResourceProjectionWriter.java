package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.ResourceProjection;
import io.stowage.ledger.domain.ResourceRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * Applies a provider-adapter event (volume.created/destroyed, pod.created/terminated, provider.alert) to
 * {@code ledger_resource} in the caller's transaction; provider.action.failed changes no row (the event table holds it).
 */
@ApplicationScoped
public class ResourceProjectionWriter {

    /** @return true when {@code event} is one of the provider-adapter's lifecycle events */
    public boolean handles(StowageEvent event) {
        return ResourceProjection.handles(event);
    }

    /** @return completes when the row change is queued in the current session */
    public Uni<Void> apply(StowageEvent event) {
        String key = ResourceProjection.keyOf(event);
        if (key == null) {
            return Uni.createFrom().voidItem();
        }
        return LedgerResource.<LedgerResource>findById(key).chain(row -> {
            ResourceRecord next = ResourceProjection.apply(row == null ? null : row.toRecord(), event);
            if (row == null) {
                return new LedgerResource().set(next).persist().replaceWithVoid();
            }
            row.set(next); // a managed row is flushed when the transaction commits
            return Uni.createFrom().voidItem();
        });
    }

    /** @return every volume or pod row ({@code kind} null = both), oldest first */
    public Uni<List<ResourceRecord>> list(String kind) {
        Uni<List<LedgerResource>> rows = Panache.withSession(() -> kind == null
                ? LedgerResource.<LedgerResource>find("order by createdAt, key").list()
                : LedgerResource.<LedgerResource>find("kind = ?1 order by createdAt, key", kind).list());
        return rows.map(list -> list.stream().map(LedgerResource::toRecord).toList());
    }
}
