package io.stowage.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * A set of benchmark inputs that live under one local directory and one key prefix, so that a tool can be
 * pointed at the whole set ({@code rclone check DIR s3:BUCKET/PREFIX}).
 *
 * @param label   how the set appears in the table, e.g. {@code 1 × 1024 MiB}
 * @param dir     the local directory holding exactly the set's files
 * @param prefix  the key prefix (ending in {@code /}) holding exactly the set's objects
 * @param objects the objects, file name under {@code dir} = key after {@code prefix}
 */
public record InputSet(String label, Path dir, String prefix, List<BenchObject> objects) {

    public InputSet {
        objects = List.copyOf(objects);
    }

    /** @return the bytes of all objects together */
    public long totalBytes() {
        return objects.stream().mapToLong(BenchObject::bytes).sum();
    }
}
