package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.ledger.domain.EvidenceScope;
import io.stowage.ledger.persistence.BrowseQueries;
import io.stowage.ledger.persistence.EvidenceQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Serves the evidence the gate reads: {@code GET /api/evidence?path=} and {@code GET /api/assets?id=} (the gate
 * evidence of one asset); {@code GET /api/assets/index} pages through every asset.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class EvidenceResource {
    /** The largest (and default) page size of the asset listing. */
    static final int MAX_LIMIT = 1000;

    private final EvidenceQueries queries;
    private final BrowseQueries browse;

    @Inject
    public EvidenceResource(EvidenceQueries queries, BrowseQueries browse) {
        this.queries = queries;
        this.browse = browse;
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

    /** @return 200 with the asset's gate evidence (the asset, every object with its newest HEAD and full-read results,
     *         upload failures); 404 when the ledger does not know {@code id}; 400 without it */
    @GET
    @Path("/assets")
    public Uni<RestResponse<AssetEvidence>> asset(@QueryParam("id") String id) {
        if (id == null || id.isBlank()) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.forAsset(id).map(a -> a == null ? RestResponse.notFound() : RestResponse.ok(a));
    }

    /**
     * @param after exclusive lower bound on the asset id (the previous page's {@code next}); absent for the first page
     * @param limit assets per page, 1 to {@value #MAX_LIMIT}
     * @return 200 with {@code {"assets":[AssetSummary…],"next":<id or null>}}, ids ascending in byte order; 400 when
     *         the limit is out of range
     */
    @GET
    @Path("/assets/index")
    public Uni<RestResponse<AssetPage>> assets(@QueryParam("after") String after,
                                              @QueryParam("limit") @DefaultValue("1000") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return browse.assets(after == null ? "" : after, limit + 1).map(rows -> RestResponse.ok(AssetPage.of(rows, limit)));
    }
}
