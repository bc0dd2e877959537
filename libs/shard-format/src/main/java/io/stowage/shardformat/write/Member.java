package io.stowage.shardformat.write;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * One regular file of a dataset directory, as found by {@link DatasetScanner}.
 *
 * @param path     path relative to the dataset directory, '/'-separated (the tar member name)
 * @param file     absolute path of the file on disk
 * @param bytes    file size in bytes at scan time
 * @param modified the file's modification time at scan time; the file must still have it (and
 *                 {@code bytes}) after it was read into a shard
 */
public record Member(String path, Path file, long bytes, FileTime modified) {
}
