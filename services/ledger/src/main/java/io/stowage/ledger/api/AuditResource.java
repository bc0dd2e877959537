package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.smallrye.common.annotation.Blocking;
import io.stowage.ledger.domain.ChainReport;
import io.stowage.ledger.domain.ReplayReport;
import io.stowage.ledger.messaging.AuditReplay;
import io.stowage.ledger.persistence.ChainQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Serves audit checks over the ledger's own rows; consumed by {@code stowage audit}. */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class AuditResource {
    private final ChainQueries chain;
    private final AuditReplay replay;

    @Inject
    public AuditResource(ChainQueries chain, AuditReplay replay) {
        this.chain = chain;
        this.replay = replay;
    }

    /**
     * Replays every audit topic from the beginning into a fresh projection schema and compares it with the live
     * projections (seconds to minutes; one at a time).
     *
     * @param scope compare only rows whose asset id (request id for releases) contains it; absent for all
     * @param keep  keep the replay schema for inspection
     * @return 200 with the {@link ReplayReport}; 500 when PostgreSQL or Kafka fails
     */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/replay")
    @Blocking
    public ReplayReport replay(@QueryParam("scope") @DefaultValue("") String scope,
                               @QueryParam("keep") @DefaultValue("false") boolean keep) throws java.sql.SQLException {
        return replay.run(scope, keep);
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
