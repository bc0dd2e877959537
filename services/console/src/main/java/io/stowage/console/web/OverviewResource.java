package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.client.ProviderApi;
import io.stowage.console.domain.AssetName;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ScrubCoverage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /}: counts, bytes per store, ledger lag, dead letters, the scrub's coverage and the newest alerts
 * ({@code GET /api/alerts}), from the ledger.
 */
@Path("/")
public class OverviewResource {
    private static final List<String> STORES = List.of("primary", "replica");

    private final Viewers viewers;
    private final LedgerApi ledger;
    private final ProviderApi provider;

    OverviewResource(Viewers viewers, @RestClient LedgerApi ledger, ProviderApi provider) {
        this.viewers = viewers;
        this.ledger = ledger;
        this.provider = provider;
    }

    /** @return the overview page */
    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance overview() {
        Viewer viewer = viewers.require();
        LedgerStatus s = ledger.status(viewer.authorization());
        List<Views.StoreRow> stores = new ArrayList<>();
        for (String store : STORES) {
            ScrubCoverage c = ledger.coverage(viewer.authorization(), store);
            stores.add(new Views.StoreRow(store, c.objects(), c.bytes(), c.objectsNeverReRead(), c.objectsReReadInPeriod(),
                    c.objectsOverdue(), c.oldestUncheckedKey(), Views.time(c.oldestUncheckedSince())));
        }
        List<AssetName> names = AssetIndex.names(ledger, viewer);
        Alerts alerts = alerts(viewer);
        Views.Overview o = new Views.Overview(s.events(), s.assets(), s.objects(), s.objectsVerified(), s.objectsFullRead(),
                s.gatesPassed(), s.gatesDenied(), s.releases(), s.deadLetters(), lag(viewer), stores, volumes(viewer),
                AssetIndex.datasets(names).size(), AssetIndex.runs(names).size(), alerts.rows(), alerts.problem());
        return Templates.overview(Pages.who(viewer), o);
    }

    /** The overview shows this many of the newest alerts. */
    static final int ALERTS = 10;

    private record Alerts(List<Views.AlertRow> rows, String problem) {
    }

    private Alerts alerts(Viewer viewer) {
        try {
            List<Views.AlertRow> rows = new ArrayList<>();
            for (JsonNode a : Answers.iterable(ledger.alerts(viewer.authorization(), ALERTS))) {
                String id = Answers.text(a, "eventId");
                String time = Answers.text(a, "time");
                rows.add(new Views.AlertRow(io.stowage.console.domain.EvidenceLink.of(id), time == null ? "—" : time,
                        Answers.text(a, "topic"), Answers.text(a, "kind"), Answers.text(a, "subject"),
                        Answers.text(a, "detail")));
            }
            return new Alerts(rows, null);
        } catch (WebApplicationException e) {
            // the REST client's own message names the client interface and method: the status is what matters here
            return new Alerts(List.of(), "the ledger did not answer its alerts: it answered "
                    + (e.getResponse() == null ? "an error" : String.valueOf(e.getResponse().getStatus())));
        } catch (jakarta.ws.rs.ProcessingException e) {
            return new Alerts(List.of(), "the ledger did not answer its alerts: " + Failures.unreachableLine(e));
        }
    }

    private String lag(Viewer viewer) {
        try {
            JsonNode lag = ledger.lag(viewer.authorization());
            long total = lag.path("total").asLong();
            return total == 0 ? "caught up (0 records behind)" : total + " records behind";
        } catch (WebApplicationException e) {
            return "unknown (the ledger cannot read Kafka's offsets: " + e.getResponse().getStatus() + ")";
        }
    }

    private long volumes(Viewer viewer) {
        try {
            JsonNode all = provider.volumes(viewer.authorization());
            long live = 0;
            for (JsonNode v : Answers.iterable(all)) {
                live += "DESTROYED".equals(Answers.text(v, "state")) ? 0 : 1;
            }
            return live;
        } catch (WebApplicationException | jakarta.ws.rs.ProcessingException e) {
            return -1;
        }
    }
}
