package io.stowage.shardformat.write;

import java.nio.file.Path;

/**
 * A file that was written completely, fsynced and renamed to its final name.
 *
 * @param path   absolute local path
 * @param bytes  size in bytes
 * @param sha256 SHA-256 of the content, 64 lower-case hex digits
 */
public record WrittenFile(Path path, long bytes, String sha256) {
}
