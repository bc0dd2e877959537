package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.ledger.persistence.BrowseQueries;
import io.stowage.ledger.persistence.ObjectQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import org.jboss.resteasy.reactive.RestResponse;

/** Serves {@code GET /api/objects}: the ledger's objects of one store, paged in key order; read by {@code stowage audit store}. */
@Path("/api/objects")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class ObjectResource {
    /** The largest (and default) page size. */
    static final int MAX_LIMIT = 1000;

    private final ObjectQueries queries;
    private final BrowseQueries browse;

    @Inject
    public ObjectResource(ObjectQueries queries, BrowseQueries browse) {
        this.queries = queries;
        this.browse = browse;
    }

    /**
     * @param key an object key (content address)
     * @return 200 with every copy of the key the ledger knows, one per store and bucket (store, then bucket order),
     *         each with its newest verification results; an empty list when none; 400 without {@code key}
     */
    @GET
    @Path("/copies")
    public Uni<RestResponse<List<ObjectEvidence>>> copies(@QueryParam("key") String key) {
        if (key == null || key.isBlank()) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return browse.copies(key).map(RestResponse::ok);
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
