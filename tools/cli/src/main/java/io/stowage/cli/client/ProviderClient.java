package io.stowage.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The provider-adapter's HTTP API for volumes, pods, the cap sweep and the cost report, answered as JSON trees:
 * {@code /api/volumes}, {@code /api/pods}, {@code /api/sweep}, {@code /api/cost}.
 */
public final class ProviderClient {
    private final URI base;
    private final HttpJson http = new HttpJson();

    /** @param base the provider-adapter's base URL from the session */
    public ProviderClient(URI base) {
        this.base = base;
    }

    /** @return the created volume record; @throws CliException with the adapter's error (exit 2 refused, 1 failed) */
    public JsonNode createVolume(Map<String, Object> request) {
        return http.post(base.resolve("/api/volumes"), request, JsonNode.class, Duration.ofMinutes(5));
    }

    /** @return every volume the adapter knows, as its JSON array ({@code GET /api/volumes}) */
    public JsonNode volumes() {
        return http.get(base.resolve("/api/volumes"), JsonNode.class).orElseThrow();
    }

    /** @return the volume with id {@code id}, empty when the adapter answers 404 */
    public Optional<JsonNode> volume(String id) {
        return http.get(base.resolve("/api/volumes/" + encode(id)), JsonNode.class);
    }

    /**
     * @return the volume after asking for its release through the gate (RELEASING, or DESTROYED when it held no file)
     * @throws CliException exit 4 when the adapter refuses the token (recorded as release.refused), as every command
     */
    public JsonNode releaseVolume(String id) {
        return http.post(base.resolve("/api/volumes/" + encode(id) + "/release"), Map.of(), JsonNode.class,
                Duration.ofMinutes(5));
    }

    /** @return the created pod record; @throws CliException with the adapter's error (exit 2 refused, 1 failed) */
    public JsonNode createPod(Map<String, Object> request) {
        return http.post(base.resolve("/api/pods"), request, JsonNode.class, Duration.ofMinutes(5));
    }

    /** @return every pod the adapter knows, as its JSON array ({@code GET /api/pods}) */
    public JsonNode pods() {
        return http.get(base.resolve("/api/pods"), JsonNode.class).orElseThrow();
    }

    /** @return the pod after asking the provider to terminate it ({@code POST /api/pods/{id}/terminate}) */
    public JsonNode terminatePod(String id) {
        return http.post(base.resolve("/api/pods/" + encode(id) + "/terminate"), Map.of(), JsonNode.class,
                Duration.ofMinutes(5));
    }

    /** @return the run's cap after setting it ({@code PUT /api/runs/{runId}/cap}) */
    public JsonNode capRun(String runId, Map<String, Object> cap) {
        return http.put(base.resolve("/api/runs/" + encode(runId) + "/cap"), cap, JsonNode.class, Duration.ofMinutes(1));
    }

    /** @return every run with a cap, as its JSON array ({@code GET /api/runs}) */
    public JsonNode runs() {
        return http.get(base.resolve("/api/runs"), JsonNode.class).orElseThrow();
    }

    /** @param at ISO instant or null for now */
    public JsonNode sweep(String at) {
        return http.post(base.resolve("/api/sweep" + (at == null ? "" : "?at=" + encode(at))), Map.of(),
                JsonNode.class, Duration.ofMinutes(5));
    }

    /**
     * Asks the retention executor to apply a run's policy ({@code POST /api/retention/apply}): it re-evaluates the run
     * from the ledger, records the signed decision, deletes each expired step from both stores and confirms it gone.
     *
     * @param policy the policy's fields as {@code RetentionPlanner.describe} names them
     * @return {@code {decisionId, planSha256, latestStep, plan, expired[{step, eventId, objects, totalBytes}],
     *         refused[{step, key, reason}]}}
     */
    public JsonNode applyRetention(String experiment, String run, Map<String, Object> policy) {
        return http.post(base.resolve("/api/retention/apply"), Map.of("experiment", experiment, "run", run,
                "policy", policy), JsonNode.class, Duration.ofMinutes(10));
    }

    /**
     * Sets a run's standing retention policy for the periodic sweep ({@code POST /api/retention/schedules}).
     *
     * @param maxFraction the per-pass cap, or null for the service's default
     * @return {@code {schedule, next{result, storedSteps, cap, wouldExpire}, sweepInterval}}
     */
    public JsonNode scheduleRetention(String experiment, String run, Map<String, Object> policy, Double maxFraction) {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("experiment", experiment);
        body.put("run", run);
        body.put("policy", policy);
        if (maxFraction != null) {
            body.put("maxFraction", maxFraction);
        }
        return http.post(base.resolve("/api/retention/schedules"), body, JsonNode.class, Duration.ofMinutes(1));
    }

    /** @return {@code {removed}}; @throws CliException (exit 1) when the run has no schedule (404) */
    public JsonNode unscheduleRetention(String experiment, String run) {
        return http.post(base.resolve("/api/retention/schedules/remove"), Map.of("experiment", experiment, "run", run),
                JsonNode.class, Duration.ofMinutes(1));
    }

    /** @return {@code {sweepInterval, schedules[], unreadable[]}} ({@code GET /api/retention/schedules}) */
    public JsonNode retentionSchedules() {
        return http.get(base.resolve("/api/retention/schedules"), JsonNode.class).orElseThrow();
    }

    /** @return {@code {runs:[{experiment, run, result, storedSteps, cap, wouldExpire, expired, refused, decisionId, detail}]}} */
    public JsonNode sweepRetention() {
        return http.post(base.resolve("/api/retention/sweep"), Map.of(), JsonNode.class, Duration.ofMinutes(30));
    }

    /** @param at ISO instant or null for now; @param archivedBytes bytes in the primary store */
    public JsonNode cost(String at, long archivedBytes) {
        return http.get(base.resolve("/api/cost?archivedBytes=" + archivedBytes + (at == null ? "" : "&at=" + encode(at))),
                JsonNode.class).orElseThrow();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
