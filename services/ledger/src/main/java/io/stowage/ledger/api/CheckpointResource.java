package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.auth.Roles;
import io.stowage.events.Validation;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.ledger.persistence.CheckpointQueries;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Serves {@code GET /api/checkpoints/steps?experiment=E&run=R}: every checkpoint step of one run with its objects,
 * metrics, tags, pin and expiry ({@link RunCheckpoints}), which retention plans from; and
 * {@code GET /api/checkpoints/policies}: each run's retention policy as its newest publish carried it from the capsule
 * ({@link io.stowage.events.ledger.RunRetentionPolicy}), which the periodic sweep applies.
 */
@Path("/api/checkpoints")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class CheckpointResource {
    private final CheckpointQueries queries;

    @Inject
    public CheckpointResource(CheckpointQueries queries) {
        this.queries = queries;
    }

    /** @return 200 with the run's steps ascending (an empty list when none); 400 when a name is missing or invalid */
    @GET
    @Path("/steps")
    public Uni<RestResponse<RunCheckpoints>> steps(@QueryParam("experiment") String experiment, @QueryParam("run") String run) {
        if (!Validation.isSegment(experiment) || !Validation.isSegment(run)) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.run(experiment, run).map(RestResponse::ok);
    }

    /** @return 200 with every run whose newest published step carried a retention policy, by experiment then run */
    @GET
    @Path("/policies")
    public Uni<java.util.List<io.stowage.events.ledger.RunRetentionPolicy>> policies() {
        return queries.policies();
    }
}
