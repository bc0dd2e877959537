package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.client.ProviderClient;
import io.stowage.events.EventCodec;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The run accounting as the CLI shows it: one run's report from the ledger ({@code GET /api/runs?experiment=&run=})
 * with the monthly store cost of its checkpoint bytes from the provider-adapter's price table (the one
 * {@code stowage cost} uses), as text or JSON; and the one-line form {@code stowage run list} prints.
 */
public final class RunAccountingView {
    private RunAccountingView() {
    }

    /**
     * @return the ledger's report with {@code storage: {checkpointBytes, storeMonthlyUsd, onVolumeMonthlyUsd}} added
     * @throws CliException when the ledger has no run accounting API
     */
    public static ObjectNode report(URI ledger, ProviderClient provider, String experiment, String run) {
        JsonNode found = new HttpJson().get(ledger.resolve("/api/runs?experiment=" + encode(experiment) + "&run=" + encode(run)),
                JsonNode.class).orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/runs"));
        ObjectNode report = (ObjectNode) found;
        long bytes = report.path("checkpointBytes").asLong();
        JsonNode archive = provider.cost(null, bytes).path("archive");
        ObjectNode storage = EventCodec.mapper().createObjectNode();
        storage.put("checkpointBytes", bytes);
        storage.set("storeMonthlyUsd", archive.path("storeMonthlyUsd"));
        storage.set("onVolumeMonthlyUsd", archive.path("onVolumeMonthlyUsd"));
        report.set("storage", storage);
        return report;
    }

    /** @return every run the ledger has an attempt of, each with its verdict (a JSON array of reports) */
    public static JsonNode all(URI ledger) {
        return new HttpJson().get(ledger.resolve("/api/runs"), JsonNode.class)
                .orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/runs"));
    }

    /** Prints {@link #report} as text. */
    public static void print(JsonNode r, PrintStream out) {
        out.printf("run %s/%s: %s (%d attempt(s), last step %s)%n", r.path("experiment").asText(), r.path("run").asText(),
                r.path("verdict").asText(), r.path("attemptCount").asInt(), r.path("lastStep").asText("-"));
        out.printf("  wall %s s; effective training %s s; data wait %s s; checkpoint writes %s s%n",
                r.path("wallSeconds").asText(), r.path("trainingSeconds").asText(), r.path("dataWaitSeconds").asText(),
                r.path("checkpointWriteSeconds").asText());
        JsonNode o = r.path("checkpointOverhead");
        out.printf("  checkpoint overhead (published -> verified): %s s over %d verified step(s), longest %s s; %d step(s) not verified yet%n",
                o.path("totalSeconds").asText(), o.path("verifiedSteps").asInt(), o.path("maxSeconds").asText(),
                o.path("unverifiedSteps").asInt());
        for (JsonNode i : r.path("interruptions")) {
            out.printf("  %s: attempt %s at step %d lost %s s%s (%s)%n", i.path("kind").asText(), i.path("attemptId").asText(),
                    i.path("step").asLong(), i.path("lostSeconds").asText(),
                    i.hasNonNull("lostUsd") ? ", " + dollars(i.path("lostUsd")) : "", i.path("reason").asText("-"));
        }
        out.printf("  preemptions and failures: %d, cost %s%n", r.path("interruptions").size(),
                r.hasNonNull("lostUsd") ? dollars(r.path("lostUsd")) + " at " + dollars(r.path("podsUsdPerHour")) + "/h of pods"
                        : "unknown (no pod price for the run)");
        JsonNode s = r.path("storage");
        out.printf("  checkpoints: %d bytes in the store cost %s per month (on a network volume %s)%n",
                s.path("checkpointBytes").asLong(), dollars(s.path("storeMonthlyUsd")), dollars(s.path("onVolumeMonthlyUsd")));
    }

    /** @return one line of {@code run list}: run, verdict, attempts, last step, wall and training seconds */
    public static String line(JsonNode r) {
        return String.format("%-40s %-15s %3d attempt(s)  last step %-8s wall %10s s  training %10s s",
                r.path("experiment").asText() + "/" + r.path("run").asText(), r.path("verdict").asText(),
                r.path("attemptCount").asInt(), r.path("lastStep").asText("-"), r.path("wallSeconds").asText(),
                r.path("trainingSeconds").asText());
    }

    private static String dollars(JsonNode amount) {
        return "$" + new BigDecimal(amount.asText("0")).setScale(4, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
