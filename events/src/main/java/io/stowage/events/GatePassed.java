package io.stowage.events;

import java.util.List;

/**
 * All five conditions hold for a release request. Produced by gatekeeper on
 * {@link Topics#GATE_PASSED}; consumed by provider-adapter (which re-checks {@code fingerprint}
 * against the directory before deleting) and ledger.
 *
 * @param assets      the asset ids whose evidence accounts for the directory's files
 * @param fileCount   number of regular files under the directory at evaluation time
 * @param totalBytes  their total size in bytes
 * @param fingerprint SHA-256 over the sorted listing (relative path, bytes, last-modified millis) of every
 *                    entry under the directory, as computed by the gatekeeper
 * @param conditions  the five conditions, each passed, with its reason and the ledger event ids proving it
 *                    (empty only in decisions written before this field existed)
 * @param inventoryDigest {@link DirectoryInventory#digestOf} of {@code inventory}: what the gate hashed;
 *                    the provider-adapter deletes nothing unless its own inventory, taken just before, has this digest
 *                    (null only in decisions written before this field existed: the provider-adapter refuses those)
 * @param inventory   every regular file under the directory (relative path, bytes, SHA-256), sorted by path, so a
 *                    difference can be named; empty when {@code inventoryParts} is above 0
 * @param inventoryParts 0 when {@code inventory} holds the entries; otherwise the number of {@link GateInventory}
 *                    parts on {@link Topics#GATE_INVENTORY} that hold them (an inventory too large for one record),
 *                    sent and acknowledged before this decision, whose joined entries must have {@code inventoryDigest}
 */
public record GatePassed(EventMeta meta, String requestId, String path, boolean dryRun, List<String> assets,
                         int fileCount, long totalBytes, String fingerprint, List<ConditionResult> conditions,
                         String inventoryDigest, List<InventoryEntry> inventory, int inventoryParts)
        implements StowageEvent {

    /** A passing decision with its five condition results and the inventory the gate hashed. */
    public static GatePassed of(EventMeta meta, String requestId, String path, boolean dryRun, List<String> assets,
                                String fingerprint, List<ConditionResult> conditions, DirectoryInventory inventory) {
        GatePassed event = new GatePassed(meta, requestId, path, dryRun, List.copyOf(assets), inventory.fileCount(),
                inventory.totalBytes(), fingerprint, List.copyOf(conditions), inventory.digest(), inventory.entries(), 0);
        event.validate();
        Validation.require(conditions.size() == 5 && conditions.stream().allMatch(ConditionResult::passed),
                "a passing decision holds five passed conditions");
        return event;
    }

    /** The decision's shape before condition results and inventories: no conditions, no inventory (refused by the provider-adapter). */
    public static GatePassed of(EventMeta meta, String requestId, String path, boolean dryRun, List<String> assets,
                                int fileCount, long totalBytes, String fingerprint) {
        GatePassed event = new GatePassed(meta, requestId, path, dryRun, List.copyOf(assets), fileCount, totalBytes,
                fingerprint, List.of(), null, List.of(), 0);
        event.validate();
        return event;
    }

    /**
     * @param parts the number of {@link GateInventory} parts that carry the entries, at least 1
     * @return this decision without its entries, naming the parts that carry them (same event id, digest and counts)
     */
    public GatePassed byReference(int parts) {
        Validation.require(parts >= 1, "an inventory by reference has at least one part");
        return new GatePassed(meta, requestId, path, dryRun, assets, fileCount, totalBytes, fingerprint, conditions,
                inventoryDigest, List.of(), parts);
    }

    /**
     * @param entries the entries joined from this decision's parts
     * @return this decision holding {@code entries} inline (the caller checks them against {@code inventoryDigest})
     */
    public GatePassed withInventory(List<InventoryEntry> entries) {
        return new GatePassed(meta, requestId, path, dryRun, assets, fileCount, totalBytes, fingerprint, conditions,
                inventoryDigest, List.copyOf(entries), 0);
    }

    /** @return true when the entries travel in {@link GateInventory} parts rather than inside this record */
    public boolean inventoryByReference() {
        return inventoryParts > 0;
    }

    public GatePassed {
        conditions = conditions == null ? List.of() : conditions;
        inventory = inventory == null ? List.of() : inventory;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.GATE_PASSED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("path", path);
        Validation.require(assets != null && !assets.isEmpty(), "assets is empty");
        Validation.requireSha256("fingerprint", fingerprint);
        if (inventoryDigest != null) {
            Validation.requireSha256("inventoryDigest", inventoryDigest);
        }
        Validation.require(inventoryParts >= 0, "inventoryParts is negative");
        Validation.require(inventoryParts == 0 || (inventory.isEmpty() && inventoryDigest != null),
                "an inventory by reference has a digest and no inline entries");
    }
}
