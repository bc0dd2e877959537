package io.stowage.events.manifest;

import java.util.List;

/**
 * The dataset manifest ({@code datasets/<dataset>/<revision>/manifest.json}): revision, licence,
 * source and shards. Written by shard-builder; deterministic (no wall-clock time).
 *
 * @param format      always "stowage.dataset.v1"
 * @param memberCount files across all shards
 * @param memberBytes their total uncompressed size in bytes
 */
public record DatasetManifest(String format, String dataset, String revision, String license, String source,
                              int memberCount, long memberBytes, List<ShardEntry> shards) {
    public static final String FORMAT = "stowage.dataset.v1";
}
