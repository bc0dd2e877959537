package io.stowage.cli.client;

import io.stowage.cli.CliException;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Asks the shard-builder service ({@code POST /api/datasets/shard}) to cut a dataset directory into shards. */
public final class ShardBuilderClient {
    private final URI base;
    private final HttpJson http = new HttpJson();

    public ShardBuilderClient(URI base) {
        this.base = base;
    }

    /**
     * The request body.
     *
     * @param dir              absolute dataset directory
     * @param targetShardBytes target shard size in bytes, or null for the service default (2 GiB)
     * @param allowSmallShards  permit a target outside the production bounds of 1–4 GiB (tests, demos)
     */
    public record ShardRequest(String dir, String dataset, String revision, String license, String source,
                               Long targetShardBytes, String stagingDir, boolean allowSmallShards) {
    }

    /**
     * The answer: counts, the dataset manifest's local path and SHA-256, each shard's SHA-256, and whether the
     * revision was already sealed with the same content (then nothing was sent).
     */
    public record ShardResult(String dataset, String revision, String assetId, int shards, int members,
                              long memberBytes, String manifestPath, String manifestSha256, List<String> shardShas,
                              boolean alreadySealed) {
    }

    /**
     * Shards synchronously; returns when every shard is written and its events acknowledged.
     *
     * @throws CliException with the service's one-line reason: exit 2 for bad input or a revision sealed with other
     *                      content (409: a sealed revision never changes), 1 otherwise (503: the ledger cannot say)
     */
    public ShardResult shard(ShardRequest request) {
        return http.post(base.resolve("/api/datasets/shard"), request, ShardResult.class, Duration.ofHours(6));
    }
}
