package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.ledger.persistence.ObjectQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** Serves {@code GET /api/objects}: the ledger's objects of one store, paged in key order; read by {@code stowage audit store}. */
@Path("/api/objects")
@Produces(MediaType.APPLICATION_JSON)
public class ObjectResource {
    /** The largest (and default) page size. */
    static final int MAX_LIMIT = 1000;

    private final ObjectQueries queries;

    @Inject
    public ObjectResource(ObjectQueries queries) {
        this.queries = queries;
    }

    /**
     * @param store logical store name, required ("primary", "replica")
     * @param after exclusive lower bound on the key (the previous page's {@code next}); absent for the first page
     * @param limit objects per page, 1 to {@value #MAX_LIMIT}
     * @return 200 with {@code {"objects":[ObjectEvidence…],"next":<key or null>}}; 400 when store is missing or
     *         the limit is out of range
     */
    @GET
    public Uni<RestResponse<ObjectPage>> objects(@QueryParam("store") String store, @QueryParam("after") String after,
                                                 @QueryParam("limit") @DefaultValue("1000") int limit) {
        if (store == null || store.isBlank() || limit < 1 || limit > MAX_LIMIT) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.after(store, after == null ? "" : after, limit + 1).map(rows -> RestResponse.ok(ObjectPage.of(rows, limit)));
    }
}
