package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.events.manifest.MemberEntry;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Asks the shard-builder service ({@code POST /api/baselines/archive}) to archive one directory as a hash-bound
 * baseline: one {@code tar.zst} in the shard format with its member manifest.
 */
public final class BaselineClient {
    private final URI base;
    private final HttpJson http = new HttpJson();

    /** @param base the shard-builder's base URL, from the session */
    public BaselineClient(URI base) {
        this.base = base;
    }

    /**
     * The request body.
     *
     * @param dir        absolute directory to archive
     * @param stagingDir absolute staging root of the session
     * @param dryRun     compute keys and SHA-256s only: keep nothing, publish nothing
     */
    public record Request(String dir, String model, String milestone, String stagingDir, boolean dryRun) {
    }

    /**
     * The answer (fields as the service's {@code BaselineResponse}): keys, bytes, SHA-256s, the member lines; local
     * paths and the event id only when not a dry run.
     */
    public record Result(String assetId, String sourceDir, String key, long bytes, String sha256, String membersKey,
                         long membersBytes, String membersSha256, int memberCount, long memberBytes,
                         String archivePath, String manifestPath, String manifestSha256, String eventId,
                         boolean dryRun, List<MemberEntry> members) {
    }

    /**
     * Archives synchronously; returns when the files are written and {@code baseline.archived} is acknowledged (or,
     * for a dry run, when the SHA-256s are known).
     *
     * @throws CliException with the service's one-line reason: exit 2 for bad input, 1 otherwise
     */
    public Result archive(Request request) {
        return http.post(base.resolve("/api/baselines/archive"), request, Result.class, Duration.ofHours(6));
    }
}
