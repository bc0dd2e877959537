package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.ledger.domain.EvidenceScope;
import io.stowage.ledger.persistence.EvidenceQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** Serves the evidence the gate reads: {@code GET /api/evidence?path=} and {@code GET /api/assets?id=}. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class EvidenceResource {
    private final EvidenceQueries queries;

    @Inject
    public EvidenceResource(EvidenceQueries queries) {
        this.queries = queries;
    }

    /** @return 200 with every asset touching the absolute directory {@code path}; 400 when it is missing or relative */
    @GET
    @Path("/evidence")
    public Uni<RestResponse<ReleaseEvidence>> evidence(@QueryParam("path") String path) {
        if (path == null || !path.startsWith("/")) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.forPath(EvidenceScope.of(path)).map(RestResponse::ok);
    }

    /** @return 200 with the asset's evidence; 404 when the ledger does not know {@code id} */
    @GET
    @Path("/assets")
    public Uni<RestResponse<AssetEvidence>> asset(@QueryParam("id") String id) {
        if (id == null || id.isBlank()) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.forAsset(id).map(a -> a == null ? RestResponse.notFound() : RestResponse.ok(a));
    }
}
