package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.domain.AssetName;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.AssetIds;
import io.stowage.events.Topics;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /audit}: the ledger's hash chain recomputed on each visit ({@code GET /api/audit/chain}: rows, intact or
 * the first broken link and why) and every milestone archive the ledger recorded ({@code archive.published} of each
 * run and dataset revision in the asset index, read through {@code GET /api/payloads}), and the newest audit replay the
 * ledger recorded ({@code GET /api/audit/replays?limit=1}: when, who, scope, identical or how many rows differed).
 */
@Path("/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditResource {
    /** Archived assets asked about at most: one ledger call each. */
    static final int MAX_ASSETS = 500;

    private final Viewers viewers;
    private final LedgerApi ledger;

    AuditResource(Viewers viewers, @RestClient LedgerApi ledger) {
        this.viewers = viewers;
        this.ledger = ledger;
    }

    /** @return the audit page */
    @GET
    public TemplateInstance audit() {
        Viewer viewer = viewers.require();
        JsonNode chain = ledger.chain(viewer.authorization());
        List<String> assets = archivable(AssetIndex.names(ledger, viewer));
        List<Views.Archive> archives = new ArrayList<>();
        for (String asset : assets) {
            JsonNode events = ledger.payloads(viewer.authorization(), AssetIds.archive(asset), Topics.ARCHIVE_PUBLISHED);
            for (JsonNode e : Answers.iterable(events)) {
                JsonNode p = e.path("payload");
                archives.add(new Views.Archive(asset, Answers.text(e, "eventTime"), Answers.text(p, "archivePath"),
                        p.path("bytes").asLong(), Answers.text(p, "sha256"), p.path("eventCount").asLong(),
                        p.path("firstSeq").asLong(), p.path("lastSeq").asLong()));
            }
        }
        Views.Replay last = null;
        for (JsonNode r : Answers.iterable(ledger.replays(viewer.authorization(), 1))) {
            String scope = r.path("scope").asText("");
            last = new Views.Replay(Answers.text(r, "finishedAt"), Answers.text(r, "requestedBy"),
                    scope.isEmpty() ? "everything" : "assets containing '" + scope + "'", r.path("identical").asBoolean(),
                    r.path("liveCaughtUp").asBoolean(), r.path("records").asLong(), r.path("events").asLong(),
                    r.path("differences").asInt(), String.format(java.util.Locale.ROOT, "%.1f", r.path("seconds").asDouble()));
        }
        return Templates.audit(Pages.who(viewer), new Views.Audit(chain.path("rows").asLong(), chain.path("ok").asBoolean(),
                Answers.text(chain, "firstBrokenSeq"), Answers.text(chain, "firstBrokenEventId"),
                Answers.text(chain, "reason"), archives, assets.size(), last));
    }

    /** @return the assets a milestone archive may cover: each dataset revision and each run, in order, at most {@link #MAX_ASSETS} */
    static List<String> archivable(List<AssetName> names) {
        Set<String> out = new LinkedHashSet<>();
        for (AssetName n : names) {
            if (out.size() >= MAX_ASSETS) {
                break;
            }
            out.add(n.dataset() ? AssetIds.dataset(n.first(), n.second()) : AssetIds.run(n.first(), n.second()));
        }
        return List.copyOf(out);
    }
}
