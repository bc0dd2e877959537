package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.ledger.domain.ChainReport;
import io.stowage.ledger.persistence.ChainQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Serves audit checks over the ledger's own rows; consumed by {@code stowage audit}. */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {
    private final ChainQueries chain;

    @Inject
    public AuditResource(ChainQueries chain) {
        this.chain = chain;
    }

    /**
     * Recomputes the whole hash chain (seconds per million rows; meant for an operator, not for every request).
     *
     * @return 200 with {@code {"rows":N,"ok":…,"firstBrokenSeq":…,"firstBrokenEventId":…,"reason":…}}; the nulls
     *         are written when the chain is intact
     */
    @GET
    @Path("/chain")
    public Uni<ChainReport> chain() {
        return chain.verify();
    }
}
