package io.stowage.events;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One part of the inventory of a passing decision too large to travel inside its {@link GatePassed} record (Kafka
 * refuses records above about 1 MiB; a directory of 500,000 files has an inventory of some 60 MB). Produced by the
 * gatekeeper on {@link Topics#GATE_INVENTORY} <em>before</em> the decision, each part acknowledged by the broker
 * first; the decision then carries no entries, only {@link GatePassed#inventoryDigest()} and
 * {@link GatePassed#inventoryParts()}. Consumed by the provider-adapter, which reads the parts back, joins them and
 * executes the decision only when the joined entries have exactly the signed digest (the parts themselves carry no
 * signature: the digest in the signed decision is what makes them trustworthy), and by the ledger, which keeps them.
 * Same record key as the decision ({@code release/<requestId>}), so parts and decision share a partition.
 *
 * @param meta            event id {@link #partId}(decision id, part): the same on every send of the same decision
 * @param requestId       the release request
 * @param decisionId      the event id of the {@link GatePassed} this part belongs to
 * @param inventoryDigest {@link DirectoryInventory#digestOf} over all parts' entries
 * @param part            zero-based index of this part
 * @param parts           number of parts, at least 1
 * @param entries         this part's entries, a contiguous run of the inventory sorted by path
 */
public record GateInventory(EventMeta meta, String requestId, String decisionId, String inventoryDigest, int part,
                            int parts, List<InventoryEntry> entries) implements StowageEvent {
    /**
     * Parts are cut so that their entries' JSON stays under this many bytes (about 256 KiB, a quarter of Kafka's
     * default record limit); an inventory under it travels inside its decision.
     */
    public static final int MAX_PART_BYTES = 256 * 1024;

    public GateInventory {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /** @return the event id of part {@code part} of decision {@code decisionId}: a name-based (version 3) UUID */
    public static String partId(String decisionId, int part) {
        return UUID.nameUUIDFromBytes(("gate-inventory:" + decisionId + ":" + part).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /** @return the bytes {@code entry} takes in an event's JSON ({@link EventCodec#mapper}), with its separating comma */
    public static long jsonBytes(InventoryEntry entry) {
        try {
            return EventCodec.mapper().writeValueAsBytes(entry).length + 1L;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InvalidEventException("inventory entry " + entry.path() + " cannot be encoded: " + e.getMessage());
        }
    }

    /** @return true when {@code entries} fit inside one decision record ({@link #MAX_PART_BYTES}) */
    public static boolean fitsInline(List<InventoryEntry> entries) {
        long total = 0;
        for (InventoryEntry e : entries) {
            total += jsonBytes(e);
            if (total > MAX_PART_BYTES) {
                return false;
            }
        }
        return true;
    }

    /**
     * Cuts {@code entries} (sorted by path) into contiguous runs of at most {@link #MAX_PART_BYTES} by
     * {@link #jsonBytes}; a single entry larger than that is a part of its own.
     *
     * @return at least one run; the runs joined are {@code entries}
     */
    public static List<List<InventoryEntry>> split(List<InventoryEntry> entries) {
        List<List<InventoryEntry>> runs = new ArrayList<>();
        List<InventoryEntry> run = new ArrayList<>();
        long bytes = 0;
        for (InventoryEntry e : entries) {
            long size = jsonBytes(e);
            if (!run.isEmpty() && bytes + size > MAX_PART_BYTES) {
                runs.add(List.copyOf(run));
                run.clear();
                bytes = 0;
            }
            run.add(e);
            bytes += size;
        }
        runs.add(List.copyOf(run));
        return runs;
    }

    /**
     * @param decision a passing decision made with {@link GatePassed#byReference}
     * @param runs     {@link #split} of its inventory
     * @return one part per run, in order, each caused by the decision's cause
     */
    public static List<GateInventory> partsOf(GatePassed decision, List<List<InventoryEntry>> runs) {
        List<GateInventory> parts = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            EventMeta meta = new EventMeta(partId(decision.meta().eventId(), i), EventMeta.CURRENT_VERSION,
                    decision.meta().time(), decision.meta().correlationId(), decision.meta().causationId());
            GateInventory part = new GateInventory(meta, decision.requestId(), decision.meta().eventId(),
                    decision.inventoryDigest(), i, runs.size(), runs.get(i));
            part.validate();
            parts.add(part);
        }
        return parts;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.GATE_INVENTORY;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("decisionId", decisionId);
        Validation.requireSha256("inventoryDigest", inventoryDigest);
        Validation.require(parts >= 1 && part >= 0 && part < parts, "part " + part + " of " + parts + " is out of range");
    }
}
