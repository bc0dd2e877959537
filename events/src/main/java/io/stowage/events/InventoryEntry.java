package io.stowage.events;

/**
 * One regular file of a {@link DirectoryInventory}.
 *
 * @param path   path relative to the inventoried directory, '/'-separated
 * @param bytes  size in bytes
 * @param sha256 SHA-256 of the content, 64 lower-case hex digits, computed when the inventory was taken
 */
public record InventoryEntry(String path, long bytes, String sha256) {
}
