package io.stowage.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.ServiceHealth;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.SupervisionState;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ScrubCoverage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code stowage status}: each service's health, restarts and last restart, what the ledger holds, and how far the
 * full re-reads (the rolling scrub) cover each store.
 */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Show each service's health and restarts, and what the ledger holds: events, objects, verifications, gate decisions, scrub coverage.")
public final class StatusCommand implements Callable<Integer> {
    private static final List<String> STORES = List.of("primary", "replica");

    @Option(names = "--json", description = "Print the status as one line of JSON (the ledger's counts, \"coverage\": one entry per store,"
            + " \"services\": one entry per service with health, restarts and lastRestart, and \"servers\": the same for Kafka,"
            + " S3Proxy and PostgreSQL).")
    boolean json;

    @Option(names = "--period", defaultValue = "30d", description = "Scrub period the coverage is measured against (30d, 12h, 90m or ISO-8601 such as P30D; default ${DEFAULT-VALUE}; the verifier's stowage.verifier.scrub.period).")
    Duration period;

    @Override
    public Integer call() {
        if (period.isZero() || period.isNegative()) {
            throw new CliException(CliException.USAGE, "--period must be above zero, not " + period);
        }
        StowageHome home = StowageHome.fromEnvironment();
        Session session = Session.readFrom(home.session());
        Optional<SupervisionState> supervision = SupervisionState.readFrom(home.services());
        List<ServiceHealth> services = ServiceHealth.of(session, supervision, home.root().resolve("state"));
        List<ServiceHealth> servers = ServiceHealth.servers(session, supervision);
        URI ledger = session.serviceUrl("ledger");
        // the ledger is asked before anything is printed: a refused token is the only line, not a half-printed status
        LedgerStatus status = new LedgerClient(ledger).status();
        List<ScrubCoverage> coverage = new ArrayList<>();
        HttpJson http = new HttpJson();
        for (String store : STORES) {
            Optional<ScrubCoverage> c = http.get(ledger.resolve("/api/coverage?store=" + store + "&period=" + period),
                    ScrubCoverage.class);
            c.ifPresent(coverage::add);
        }
        if (json) {
            ObjectNode out = EventCodec.mapper().valueToTree(status);
            out.set("coverage", EventCodec.mapper().valueToTree(coverage));
            out.set("services", EventCodec.mapper().valueToTree(services));
            out.set("servers", EventCodec.mapper().valueToTree(servers));
            JsonOut.print(out);
        } else {
            System.out.println("services:");
            services.forEach(s -> System.out.println(s.line()));
            System.out.println("servers:");
            servers.forEach(s -> System.out.println(s.line()));
            System.out.printf("events %d (dead letters %d)%nassets %d%nobjects %d: %d HEAD-verified, %d re-read in full%n"
                            + "gate: %d passed, %d denied%nreleases %d%n", status.events(), status.deadLetters(), status.assets(),
                    status.objects(), status.objectsVerified(), status.objectsFullRead(), status.gatesPassed(),
                    status.gatesDenied(), status.releases());
            if (coverage.isEmpty()) {
                System.out.println("scrub coverage: not available from this ledger (no /api/coverage)");
            }
            coverage.forEach(c -> System.out.println(line(c)));
        }
        return 0;
    }

    /** @return one line per store, e.g. "scrub coverage primary (period 30d): 3 of 4 objects re-read in the period, …" */
    static String line(ScrubCoverage c) {
        String head = String.format(Locale.ROOT, "scrub coverage %s (period %s): %d of %d objects re-read in the period"
                        + " (%s in %d full reads, %d by the scrub), %d never re-read, %d overdue", c.store(),
                human(c.periodSeconds()), c.objectsReReadInPeriod(), c.objects(), size(c.bytesReReadInPeriod()),
                c.fullReadsInPeriod(), c.scrubReadsInPeriod(), c.objectsNeverReRead(), c.objectsOverdue());
        if (c.oldestUncheckedKey() == null) {
            return head;
        }
        return head + String.format(Locale.ROOT, "; next due %s, %s %s (%s ago)", c.oldestUncheckedKey(),
                c.oldestUncheckedNeverReRead() ? "never re-read, uploaded" : "last re-read", c.oldestUncheckedSince(),
                human(c.oldestUncheckedAgeSeconds()));
    }

    /**
     * @param seconds a duration in seconds, 0 or more
     * @return the duration in the largest whole units a reader scans quickly: {@code 30d}, {@code 2d 4h}, {@code 5h 3m},
     *         {@code 3m 20s}, {@code 3s}
     */
    static String human(long seconds) {
        long d = seconds / 86_400, h = seconds % 86_400 / 3_600, m = seconds % 3_600 / 60, s = seconds % 60;
        if (d > 0) {
            return h == 0 ? d + "d" : d + "d " + h + "h";
        }
        if (h > 0) {
            return m == 0 ? h + "h" : h + "h " + m + "m";
        }
        if (m > 0) {
            return s == 0 ? m + "m" : m + "m " + s + "s";
        }
        return s + "s";
    }

    private static String size(long bytes) {
        return bytes < (1L << 20) ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
