package io.stowage.provideradapter.domain;

import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;

import java.util.List;
import java.util.Optional;

/**
 * Reads back the {@code gate.inventory} parts of a decision whose inventory travels by reference
 * ({@link GatePassed#inventoryByReference()}). The parts carry no signature of their own: the caller joins them and
 * trusts the result only when it has the signed decision's {@link GatePassed#inventoryDigest()}.
 */
public interface InventoryParts {
    /** Reads nothing: every decision by reference is refused, nothing deleted (for handlers without a broker). */
    InventoryParts NONE = decision -> Optional.empty();

    /**
     * @param decision an authentic decision with {@code inventoryParts} above 0
     * @return the entries of parts 0 to {@code inventoryParts - 1} of this decision (same request, decision id and
     *         digest), joined in part order; empty when a part is not on the topic up to its end
     * @throws IllegalStateException when the topic cannot be read now (the decision is retried, never executed
     *                               without its inventory)
     */
    Optional<List<InventoryEntry>> join(GatePassed decision);
}
