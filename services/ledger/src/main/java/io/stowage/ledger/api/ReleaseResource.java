package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.ledger.persistence.LedgerQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** Serves release outcomes ({@code GET /api/releases/{requestId}}) and the ledger's counts ({@code GET /api/status}). */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class ReleaseResource {
    private final LedgerQueries queries;

    @Inject
    public ReleaseResource(LedgerQueries queries) {
        this.queries = queries;
    }

    /** @return 200 with what became of the request; 404 when the ledger never saw it */
    @GET
    @Path("/releases/{requestId}")
    public Uni<RestResponse<ReleaseOutcome>> release(@PathParam("requestId") String requestId) {
        return queries.release(requestId).map(r -> r == null ? RestResponse.notFound() : RestResponse.ok(r));
    }

    /** @return counts of events, assets, verified objects, gate decisions, releases and dead letters */
    @GET
    @Path("/status")
    public Uni<LedgerStatus> status() {
        return queries.status();
    }
}
