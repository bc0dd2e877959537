package io.stowage.events.manifest;

/**
 * One line of a shard's member manifest (JSONL), and one file of a checkpoint manifest.
 *
 * @param path   path relative to the dataset (or step) directory, '/'-separated, UTF-8
 * @param bytes  file size in bytes
 * @param sha256 SHA-256 of the file content, 64 lower-case hex digits
 */
public record MemberEntry(String path, long bytes, String sha256) {
}
