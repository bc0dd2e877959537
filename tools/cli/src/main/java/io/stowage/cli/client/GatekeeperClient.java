package io.stowage.cli.client;

import io.stowage.cli.CliException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Asks the gatekeeper for a release ({@code POST /api/releases}) or a checkpoint pin over its HTTP API, with the CLI's bearer
 * token ({@link BearerToken}); the gatekeeper sends the {@code volume.release.requested} in the token's name.
 */
public final class GatekeeperClient {
    private final URI base;
    private final HttpJson http = new HttpJson();

    /** @param base the gatekeeper's base URL from the session, e.g. {@code http://127.0.0.1:41234} */
    public GatekeeperClient(URI base) {
        this.base = base;
    }

    /** The gatekeeper's answer: the new request's id, its event id and the token name it was sent in. */
    record Accepted(String requestId, String eventId, String requestedBy) {
    }

    /**
     * Pins or unpins one checkpoint step ({@code POST /api/checkpoints/pins}); the gatekeeper sends
     * {@code checkpoint.pinned} in the token's name.
     *
     * @return the gatekeeper's answer: assetId, eventId, pinned, requestedBy
     * @throws CliException exit 4 when the token is missing, unknown or not an operator's; exit 2 for a bad name
     */
    public com.fasterxml.jackson.databind.JsonNode pin(String experiment, String run, long step, boolean pinned) {
        return http.post(base.resolve("/api/checkpoints/pins"), Map.of("experiment", experiment, "run", run, "step", step,
                "pinned", pinned), com.fasterxml.jackson.databind.JsonNode.class, Duration.ofSeconds(60));
    }

    /**
     * Leases one checkpoint step for {@code seconds} ({@code POST /api/checkpoints/leases}, a reader token suffices);
     * the gatekeeper sends a {@code checkpoint.pinned} with {@code leaseUntil} in the token's name.
     *
     * @return the gatekeeper's answer: assetId, eventId, leaseUntil (ISO-8601 UTC), requestedBy
     * @throws CliException exit 4 when the token is missing, unknown or expired; exit 2 for a bad name or a duration
     *                      above the gatekeeper's maximum; exit 1 when the gatekeeper cannot be reached
     */
    public com.fasterxml.jackson.databind.JsonNode lease(String experiment, String run, long step, long seconds) {
        return http.post(base.resolve("/api/checkpoints/leases"), Map.of("experiment", experiment, "run", run, "step", step,
                "seconds", seconds), com.fasterxml.jackson.databind.JsonNode.class, Duration.ofSeconds(60));
    }

    /**
     * @param target absolute, normalised directory
     * @return the accepted request
     * @throws CliException exit 4 when the token is missing, unknown, expired (401) or not an operator's (403; the
     *                      gatekeeper records it as {@code release.refused}); exit 1 when the gatekeeper cannot be reached
     */
    Accepted request(Path target, boolean dryRun) {
        return http.post(base.resolve("/api/releases"), Map.of("path", target.toString(), "dryRun", dryRun), Accepted.class,
                Duration.ofSeconds(60));
    }
}
