package io.stowage.ledger.api;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.auth.Roles;
import io.stowage.ledger.persistence.LedgerModelPromotion;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Instant;

/**
 * Serves {@code GET /api/models/promotion?id=model/M/R}: the checkpoint step a model revision was promoted from
 * ({@code ledger_model_promotion}, from its model.published), the model side of the lineage that
 * {@code GET /api/checkpoints/steps} shows from the step's side ({@code promotedTo}).
 */
@Path("/api/models")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class ModelResource {

    /**
     * Where a promoted revision came from.
     *
     * @param model          {@code model/<model>/<revision>}
     * @param fromCheckpoint {@code checkpoint/<E>/<R>/<step>}
     * @param eventId        the model.published that recorded it
     * @param promotedAt     that event's time
     */
    public record Promotion(String model, String fromCheckpoint, String eventId, Instant promotedAt) {
    }

    /** @return 200 with the revision's step; 404 when the revision was not promoted from a step (or is unknown); 400 without an id */
    @GET
    @Path("/promotion")
    public Uni<RestResponse<Promotion>> promotion(@QueryParam("id") String id) {
        if (id == null || !id.startsWith("model/")) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return Panache.withSession(() -> LedgerModelPromotion.<LedgerModelPromotion>findById(id)).map(row -> row == null
                ? RestResponse.notFound()
                : RestResponse.ok(new Promotion(row.modelAssetId, row.checkpointAssetId, row.eventId, row.promotedAt)));
    }
}
