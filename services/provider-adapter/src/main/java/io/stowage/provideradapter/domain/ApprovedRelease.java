package io.stowage.provideradapter.domain;

import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;

import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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

    /** Prefix of the hidden sibling a directory is renamed to while it is released. */
    public static final String ASIDE_PREFIX = ".stowage-releasing-";

    /**
     * @param requestId the release request
     * @return the sibling {@code .stowage-releasing-<requestId>} of {@link #dir()} (same parent, hence the same
     *         filesystem); a request id that is not a short plain name is replaced by its SHA-256
     */
    public Path asideFor(String requestId) {
        String name = requestId.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}") ? requestId : sha256(requestId);
        return dir.resolveSibling(ASIDE_PREFIX + name);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
