package io.stowage.store;

/**
 * The outcome of reading an object in full.
 *
 * @param bytes  number of bytes read
 * @param sha256 SHA-256 recomputed over exactly those bytes, 64 lower-case hex digits
 */
public record ReadResult(long bytes, String sha256) {
}
