package io.stowage.bench;

import java.nio.file.Path;

/**
 * One benchmark input: a local file and the key it was uploaded to.
 *
 * @param key    object key in the bucket
 * @param file   the local copy (the one {@code rclone check --download} compares against)
 * @param bytes  size in bytes
 * @param sha256 SHA-256 of the file, 64 lower-case hex digits, computed while it was written
 */
public record BenchObject(String key, Path file, long bytes, String sha256) {
}
