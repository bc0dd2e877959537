package io.stowage.shardbuilder.domain;

import java.nio.file.Path;

/**
 * One regular file of a dataset directory, as found by {@link DatasetScanner}.
 *
 * @param path  path relative to the dataset directory, '/'-separated (the tar member name)
 * @param file  absolute path of the file on disk
 * @param bytes file size in bytes at scan time
 */
public record Member(String path, Path file, long bytes) {
}
