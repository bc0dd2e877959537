package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.auth.Roles;
import io.stowage.events.Validation;
import io.stowage.ledger.domain.RunReport;
import io.stowage.ledger.persistence.RunQueries;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;


/**
 * Serves the run accounting: {@code GET /api/runs?experiment=E&run=R} one run's {@link RunReport} (verdict
 * "not started" when no attempt is known), {@code GET /api/runs} every run with an attempt.
 */
@Path("/api/runs")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class RunAccountingResource {
    private final RunQueries queries;

    @Inject
    public RunAccountingResource(RunQueries queries) {
        this.queries = queries;
    }

    /** @return 200 with every run's report when no name is given, else one run's; 400 for an invalid name */
    @GET
    public Uni<RestResponse<Object>> runs(@QueryParam("experiment") String experiment, @QueryParam("run") String run) {
        if (experiment == null && run == null) {
            return queries.all().map(list -> RestResponse.ok((Object) list));
        }
        if (!Validation.isSegment(experiment) || !Validation.isSegment(run)) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.report(experiment, run).map(r -> RestResponse.ok((Object) r));
    }
}
