package io.stowage.events;

/** What an object in the store is. */
public enum ObjectKind {
    /** A dataset shard, {@code .tar.zst}. */
    SHARD,
    /** The member manifest of a shard, {@code .members.jsonl}. */
    MEMBERS,
    /** A dataset manifest, {@code manifest.json}. */
    DATASET_MANIFEST,
    /** One file of a checkpoint step. */
    CHECKPOINT_FILE,
    /** One file of a model revision. */
    MODEL_FILE,
    /** The model manifest of a model revision, {@code models/<model>/<revision>/manifest.json}. */
    MODEL_MANIFEST,
    /** A milestone archive. */
    ARCHIVE
}
