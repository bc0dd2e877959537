package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.audit.AuditStoreLedger;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.util.concurrent.Callable;

/**
 * {@code stowage cost [--json] [--at T]}: what every volume and pod cost so far, what the live ones cost per month,
 * and what the archive (the primary store's bytes, summed from the ledger) costs in the store against a volume.
 * {@code stowage cost --run E/R [--json]}: one training run's accounting from the ledger.
 */
@Command(name = "cost", mixinStandardHelpOptions = true,
        description = "Show the cost of volumes and pods and of the archive (store vs volume), in US dollars.")
public final class CostCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the report as one line of JSON (amounts to 6 decimals).")
    boolean json;
    @Option(names = "--at", description = "ISO-8601 instant to compute the figures for (default now).")
    String at;
    @Option(names = "--run", paramLabel = "E/R", description = "One training run's accounting instead: wall, training and"
            + " data-wait seconds, checkpoint overhead, preemptions and failures with their cost, its checkpoints' store cost.")
    String run;

    @Override
    public Integer call() {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        if (run != null) {
            return runReport(session);
        }
        long archived = archivedBytes(session.serviceUrl("ledger"));
        JsonNode report = new ProviderClient(session.serviceUrl("provider-adapter")).cost(at, archived);
        if (json) {
            JsonOut.print(report);
            return 0;
        }
        System.out.printf("cost at %s (US dollars)%n", report.path("at").asText());
        System.out.printf("%-6s %-42s %-20s %-12s %-5s %12s %10s %10s%n", "KIND", "ID", "NAME", "SIZE", "LIVE",
                "LIFETIME", "COST", "PER MONTH");
        for (JsonNode line : report.path("lines")) {
            System.out.printf("%-6s %-42s %-20s %-12s %-5s %12s %10s %10s%n", line.path("kind").asText(),
                    line.path("id").asText(), line.path("name").asText(), line.path("size").asText(),
                    line.path("live").asBoolean() ? "yes" : "no", hours(line.path("lifetimeSeconds").asLong()),
                    cents(line.path("costUsd")), cents(line.path("monthlyUsd")));
        }
        System.out.printf("total so far %s; live resources %s per month%n", cents(report.path("totalCostUsd")),
                cents(report.path("liveMonthlyUsd")));
        JsonNode archive = report.path("archive");
        System.out.printf("archive: %d bytes in the store cost %s per month; on a network volume %s; saving %s per month%n",
                archive.path("archivedBytes").asLong(), cents(archive.path("storeMonthlyUsd")),
                cents(archive.path("onVolumeMonthlyUsd")), cents(archive.path("monthlySavingUsd")));
        return 0;
    }

    private int runReport(Session session) {
        String[] er = run.split("/", -1);
        if (er.length != 2) {
            throw new CliException(CliException.USAGE, "--run must be EXPERIMENT/RUN: " + run);
        }
        io.stowage.cli.NameArguments.require("--run experiment", er[0]);
        io.stowage.cli.NameArguments.require("--run run", er[1]);
        JsonNode report = io.stowage.cli.run.RunAccountingView.report(session.serviceUrl("ledger"),
                new ProviderClient(session.serviceUrl("provider-adapter")), er[0], er[1]);
        requireKnownRun(report, session.serviceUrl("ledger"), er[0], er[1]);
        if (json) {
            JsonOut.print(report);
        } else {
            io.stowage.cli.run.RunAccountingView.print(report, System.out);
        }
        return 0;
    }

    /**
     * A run is known when the ledger holds an attempt of it or a checkpoint step of it; the ledger's report of any other
     * name is an empty "not started", which would hide a typo.
     *
     * @param report the ledger's run report ({@code attemptCount})
     * @throws CliException exit 1 naming the run when the ledger knows neither
     */
    static void requireKnownRun(JsonNode report, URI ledger, String experiment, String run) {
        if (report.path("attemptCount").asInt() == 0
                && new io.stowage.cli.client.LedgerClient(ledger).checkpoints(experiment, run).steps().isEmpty()) {
            throw new CliException(CliException.FAILED, "the ledger knows no run " + experiment + "/" + run
                    + " (no attempt and no checkpoint step of it)");
        }
    }

    /** @return the bytes of every object the ledger records in the primary store (paged {@code /api/objects}) */
    static long archivedBytes(URI ledger) {
        JavaType type = EventCodec.mapper().constructType(AuditStoreLedger.Page.class);
        HttpJson http = new HttpJson();
        long total = 0;
        String after = "";
        do {
            String cursor = after;
            AuditStoreLedger.Page page = http.<AuditStoreLedger.Page>get(ledger.resolve("/api/objects?store=primary&limit=1000&after="
                    + java.net.URLEncoder.encode(cursor, java.nio.charset.StandardCharsets.UTF_8)), type)
                    .orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/objects"));
            total += page.objects().stream().mapToLong(o -> o.bytes()).sum();
            if (cursor.equals(page.next())) {
                throw new CliException(CliException.FAILED, "the ledger's /api/objects repeats the page after " + cursor);
            }
            after = page.next();
        } while (after != null);
        return total;
    }

    private static String cents(JsonNode amount) {
        return "$" + new BigDecimal(amount.asText("0")).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String hours(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60);
    }
}
