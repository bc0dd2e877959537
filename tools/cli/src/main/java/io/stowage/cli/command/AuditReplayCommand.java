package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code stowage audit replay [--scope TEXT] [--keep] [--json]}: asks the ledger ({@code POST /api/audit/replay})
 * to read every topic from the beginning into a fresh projection schema and compare it with the live projections;
 * prints "identical" or every difference grouped by asset, column by column. Exit 0 identical, 1 different or failed.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Rebuild the projections from the topics into a fresh schema and compare them with the live ones (exit 1 on any difference).")
public final class AuditReplayCommand implements Callable<Integer> {
    @Option(names = "--scope", paramLabel = "TEXT", defaultValue = "",
            description = "Compare only rows whose asset id (or release request id) contains TEXT; default everything.")
    String scope;

    @Option(names = "--keep", description = "Keep the replay schema in PostgreSQL for inspection.")
    boolean keep;

    @Option(names = "--json", description = "Print the ledger's report as one line of JSON.")
    boolean json;

    /** The ledger's replay report (see docs/design/ledger.md). */
    public record Report(String schema, boolean kept, String scope, long records, long events, long duplicates,
                  long undecodable, long unprojected, boolean liveCaughtUp, Map<String, Long> rows, double seconds,
                  boolean identical, List<Difference> differences) {
    }

    /** One row on which live and replay disagree; {@code live}/{@code replay} null when the row is missing there. */
    record Difference(String table, String assetId, String key, JsonNode live, JsonNode replay) {
    }

    @Override
    public Integer call() {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        URI uri = session.serviceUrl("ledger").resolve("/api/audit/replay?scope="
                + URLEncoder.encode(scope, StandardCharsets.UTF_8) + "&keep=" + keep);
        if (!json) {
            System.err.println("replaying every topic from the beginning into a fresh schema…");
        }
        Report report = new HttpJson().post(uri, Map.of(), Report.class, Duration.ofMinutes(30));
        if (json) {
            JsonOut.print(report);
        } else {
            print(report);
        }
        return report.identical() ? 0 : CliException.FAILED;
    }

    private static void print(Report r) {
        System.out.printf("replayed %d records (%d events, %d redelivered, %d undecodable) into %s in %.1f s%s%n",
                r.records(), r.events(), r.duplicates(), r.undecodable(), r.schema(), r.seconds(),
                r.kept() ? " (kept)" : "");
        if (!r.liveCaughtUp()) {
            System.out.println("warning: the live ledger had not committed every replayed record; differences may be lag");
        }
        if (r.identical()) {
            System.out.println("projections identical" + (r.scope().isEmpty() ? "" : " (scope " + r.scope() + ")"));
            return;
        }
        Map<String, List<Difference>> byAsset = new LinkedHashMap<>();
        for (Difference d : r.differences()) {
            byAsset.computeIfAbsent(d.assetId() != null ? d.assetId() : "(release " + d.key() + ")", k -> new ArrayList<>()).add(d);
        }
        System.out.printf("%d differences in %d assets%n", r.differences().size(), byAsset.size());
        byAsset.forEach((asset, differences) -> {
            System.out.println("asset " + asset);
            for (Difference d : differences) {
                System.out.println("  " + d.table() + " " + d.key() + ": " + columns(d));
            }
        });
    }

    /** @return "only in the live ledger", "only in the replay", or {@code column: live X, replay Y} per differing column */
    static String columns(Difference d) {
        if (d.replay() == null) {
            return "only in the live ledger";
        }
        if (d.live() == null) {
            return "only in the replay";
        }
        TreeSet<String> names = new TreeSet<>();
        d.live().fieldNames().forEachRemaining(names::add);
        d.replay().fieldNames().forEachRemaining(names::add);
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = names.iterator(); it.hasNext(); ) {
            String name = it.next();
            JsonNode a = d.live().get(name);
            JsonNode b = d.replay().get(name);
            if (a == null ? b != null : !a.equals(b)) {
                out.add(name + ": live " + a + ", replay " + b);
            }
        }
        return String.join("; ", out);
    }
}
