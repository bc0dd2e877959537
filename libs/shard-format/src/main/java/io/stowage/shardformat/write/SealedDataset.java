package io.stowage.shardformat.write;

import io.stowage.events.manifest.DatasetManifest;

import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of sharding one dataset revision: every shard and the dataset manifest, all on disk.
 *
 * @param sourceDir     absolute, normalised dataset directory
 * @param shards        the shards in index order
 * @param manifestFile  the written {@code manifest.json}
 * @param manifest      its content
 * @param alreadySealed true when the ledger already holds this revision sealed with the same manifest SHA-256:
 *                      nothing is to be published
 */
public record SealedDataset(Path sourceDir, List<BuiltShard> shards, WrittenFile manifestFile, DatasetManifest manifest,
                            boolean alreadySealed) {
    public SealedDataset {
        shards = List.copyOf(shards);
    }

    /** A revision sealed by this build. */
    public SealedDataset(Path sourceDir, List<BuiltShard> shards, WrittenFile manifestFile, DatasetManifest manifest) {
        this(sourceDir, shards, manifestFile, manifest, false);
    }
}
