package io.stowage.provideradapter.domain;

import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;

import java.nio.file.Path;
import java.util.List;

/**
 * What an authentic {@code gate.passed} approved: exactly one directory, as the gate saw it.
 *
 * @param dir             absolute, normalised directory (from {@link GatePassed#path()})
 * @param fingerprint     {@link io.stowage.events.DirectoryFingerprint} SHA-256 the gate saw (structure, mtimes)
 * @param inventoryDigest {@link io.stowage.events.DirectoryInventory} digest the gate hashed (content)
 * @param inventory       the files the gate hashed (relative path, bytes, SHA-256), to name a difference
 */
public record ApprovedRelease(Path dir, String fingerprint, String inventoryDigest, List<InventoryEntry> inventory) {

    public ApprovedRelease {
        inventory = List.copyOf(inventory);
    }

    /**
     * @return the approval carried by {@code passed}
     * @throws java.nio.file.InvalidPathException when its path is not a valid path
     */
    public static ApprovedRelease of(GatePassed passed) {
        return new ApprovedRelease(Path.of(passed.path()), passed.fingerprint(), passed.inventoryDigest(),
                passed.inventory());
    }
}
