package io.stowage.uploader.domain;

import io.stowage.events.ObjectKind;

import java.nio.file.Path;

/**
 * One local file to put at one content address in one store.
 *
 * @param store     logical store name, {@link #PRIMARY} or {@link #REPLICA}
 * @param key       object key from {@link io.stowage.events.ObjectKeys}
 * @param kind      what the object is
 * @param localPath absolute path of the local file
 * @param bytes     size the file must have, in bytes (from the event or manifest)
 * @param sha256    SHA-256 the file must have (from the event or manifest)
 */
public record UploadTask(String store, String key, ObjectKind kind, Path localPath, long bytes, String sha256) {
    /** The store every object goes to. */
    public static final String PRIMARY = "primary";
    /** The second store key checkpoints also go to (gate condition 4). */
    public static final String REPLICA = "replica";
}
