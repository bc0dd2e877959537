package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.client.ProviderApi;
import io.stowage.console.domain.TimeLeft;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.AssetIds;
import io.stowage.events.Topics;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /volumes}: every volume, pod and run cap the provider-adapter keeps ({@code /api/volumes}, {@code /api/pods},
 * {@code /api/runs}) with state, time to live, caps and cost so far, and the archive's monthly cost in the object store
 * against keeping it on a volume. The cost figures are the provider-adapter's own report ({@code GET /api/cost}, the
 * computation {@code stowage cost} prints), asked with the primary store's bytes from the ledger's coverage. Time to
 * live left is counted to the report's instant. A BLOCKED volume shows its blockers and the detail of its newest
 * {@code provider.alert} in the ledger ({@code GET /api/payloads}).
 */
@Path("/volumes")
@Produces(MediaType.TEXT_HTML)
public class VolumesResource {
    private final Viewers viewers;
    private final LedgerApi ledger;
    private final ProviderApi provider;

    VolumesResource(Viewers viewers, @RestClient LedgerApi ledger, ProviderApi provider) {
        this.viewers = viewers;
        this.ledger = ledger;
        this.provider = provider;
    }

    /** @return the volumes page; a service's refusal or failure is a problem page */
    @GET
    public TemplateInstance volumes() {
        Viewer viewer = viewers.require();
        long archived = ledger.coverage(viewer.authorization(), "primary").bytes();
        JsonNode cost = provider.cost(viewer.authorization(), archived);
        Map<String, JsonNode> lines = new HashMap<>();
        for (JsonNode line : Answers.iterable(cost.get("lines"))) {
            lines.put(Answers.text(line, "kind") + "/" + Answers.text(line, "id"), line);
        }
        Instant at = Instant.parse(Answers.text(cost, "at"));
        List<Views.VolumeRow> volumes = new ArrayList<>();
        Map<String, BigDecimal> perRun = new HashMap<>();
        for (JsonNode v : Answers.iterable(provider.volumes(viewer.authorization()))) {
            JsonNode line = lines.get("volume/" + Answers.text(v, "id"));
            volumes.add(volume(v, line, at, "BLOCKED".equals(Answers.text(v, "state")) ? alert(viewer, v) : null));
            addToRun(perRun, v, line);
        }
        List<Views.PodRow> pods = new ArrayList<>();
        for (JsonNode p : Answers.iterable(provider.pods(viewer.authorization()))) {
            JsonNode line = lines.get("pod/" + Answers.text(p, "id"));
            pods.add(pod(p, line, at));
            addToRun(perRun, p, line);
        }
        List<Views.RunCapRow> runs = new ArrayList<>();
        for (JsonNode r : Answers.iterable(provider.runs(viewer.authorization()))) {
            BigDecimal spent = perRun.get(Answers.text(r, "runId"));
            runs.add(new Views.RunCapRow(Answers.text(r, "runId"), or(Answers.text(r, "capUsd"), "none"),
                    maxTime(r.path("maxSeconds").asLong()), or(Answers.text(r, "capGpuHours"), "none"),
                    dash(Answers.text(r, "createdAt")),
                    dash(Answers.text(r, "checkpointRequestedAt")), dash(Answers.text(r, "triggeredAt")),
                    spent == null ? "0" : spent.toPlainString()));
        }
        JsonNode archive = cost.path("archive");
        return Templates.volumes(Pages.who(viewer), new Views.Volumes(Answers.text(cost, "at"), volumes, pods, runs,
                amount(cost, "totalCostUsd"), amount(cost, "liveMonthlyUsd"),
                archive.path("archivedBytes").asLong(), amount(archive, "storeMonthlyUsd"),
                amount(archive, "onVolumeMonthlyUsd"), amount(archive, "monthlySavingUsd")));
    }

    /** @return the detail of the volume's newest {@code provider.alert} the ledger holds, null when none */
    private String alert(Viewer viewer, JsonNode volume) {
        String detail = null;
        JsonNode alerts = ledger.payloads(viewer.authorization(), AssetIds.volume(Answers.text(volume, "id")),
                Topics.PROVIDER_ALERT);
        for (JsonNode a : Answers.iterable(alerts)) {
            detail = Answers.text(a.path("payload"), "detail");
        }
        return detail;
    }

    private static Views.VolumeRow volume(JsonNode v, JsonNode line, Instant at, String alert) {
        List<String> blockers = new ArrayList<>();
        Answers.iterable(v.get("blockers")).forEach(b -> blockers.add(b.asText()));
        return new Views.VolumeRow(Answers.text(v, "id"), dash(Answers.text(v, "name")), Answers.text(v, "provider"),
                dash(Answers.text(v, "purpose")), v.path("sizeGb").asInt() + " GB", Answers.text(v, "path"),
                Answers.text(v, "state"), dash(Answers.text(v, "createdAt")), or(Answers.text(v, "expiresAt"), "none"),
                ttlLeft(v, at), or(Answers.text(v, "capUsd"), "none"), dash(Answers.text(v, "runId")),
                cost(line, "costUsd"), cost(line, "monthlyUsd"), Answers.text(v, "releaseReason"), blockers, alert);
    }

    private static Views.PodRow pod(JsonNode p, JsonNode line, Instant at) {
        String terminated = Answers.text(p, "terminatedAt");
        String state = terminated == null ? "RUNNING" : "TERMINATED (" + or(Answers.text(p, "reason"), "—") + ")";
        return new Views.PodRow(Answers.text(p, "id"), dash(Answers.text(p, "name")), Answers.text(p, "provider"),
                p.path("gpuCount").asInt() + " × " + or(Answers.text(p, "gpuTypeId"), "—"),
                Answers.text(p, "costPerHourUsd"), state, dash(Answers.text(p, "createdAt")),
                or(Answers.text(p, "expiresAt"), "none"), terminated == null ? ttlLeft(p, at) : "—",
                or(Answers.text(p, "capUsd"), "none"),
                dash(Answers.text(p, "runId")), cost(line, "costUsd"), cost(line, "monthlyUsd"));
    }

    // a run's resources cost what their lines say; one without a line (not in the report yet) adds nothing
    private static void addToRun(Map<String, BigDecimal> perRun, JsonNode resource, JsonNode line) {
        String runId = Answers.text(resource, "runId");
        if (runId != null && line != null && line.hasNonNull("costUsd")) {
            perRun.merge(runId, new BigDecimal(line.get("costUsd").asText()), BigDecimal::add);
        }
    }

    private static String cost(JsonNode line, String field) {
        return line == null ? "—" : amount(line, field);
    }

    // US dollars as the report's decimal, never a float's rounding
    private static String amount(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? "—" : v.isNumber() ? v.decimalValue().toPlainString() : v.asText();
    }

    // a destroyed volume has no time left to show; a live one counts down on the provider-adapter's clock
    private static String ttlLeft(JsonNode resource, Instant at) {
        if ("DESTROYED".equals(Answers.text(resource, "state"))) {
            return "—";
        }
        String expires = Answers.text(resource, "expiresAt");
        return TimeLeft.of(expires == null ? null : Instant.parse(expires), at);
    }

    private static String maxTime(long seconds) {
        return seconds <= 0 ? "none" : Duration.ofSeconds(seconds).toString().substring(2).toLowerCase();
    }

    private static String dash(String value) {
        return or(value, "—");
    }

    private static String or(String value, String otherwise) {
        return value == null ? otherwise : value;
    }
}
