package io.stowage.events.ledger;

import io.stowage.events.ConditionResult;
import io.stowage.events.GateDenied;
import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;

import java.util.List;

/**
 * The gate's decision on one release request as the ledger keeps it for {@code GET /api/releases/{id}}
 * and {@code stowage release --dry-run}: what would be freed and why (not).
 *
 * @param decisionEventId the gate.passed or gate.denied event id
 * @param assets          asset ids that account for the directory (when denied: those the gate examined)
 * @param conditions      the five conditions with pass/fail, reason and evidence event ids
 * @param fileCount       regular files that would be freed (0 when denied)
 * @param totalBytes      their bytes (0 when denied)
 * @param inventoryDigest digest of the inventory the gate hashed (null when denied)
 * @param inventory       the files that would be freed: relative path, bytes, SHA-256 (empty when denied)
 */
public record ReleasePlan(String decisionEventId, List<String> assets, List<ConditionResult> conditions,
                          int fileCount, long totalBytes, String inventoryDigest, List<InventoryEntry> inventory) {

    public ReleasePlan {
        assets = assets == null ? List.of() : List.copyOf(assets);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        inventory = inventory == null ? List.of() : List.copyOf(inventory);
    }

    /** @return the plan of a passing decision */
    public static ReleasePlan of(GatePassed e) {
        return new ReleasePlan(e.meta().eventId(), e.assets(), e.conditions(), e.fileCount(), e.totalBytes(),
                e.inventoryDigest(), e.inventory());
    }

    /** @return the plan of a denial: nothing would be freed */
    public static ReleasePlan of(GateDenied e) {
        return new ReleasePlan(e.meta().eventId(), e.assets(), e.conditions(), 0, 0, null, List.of());
    }
}
