package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.ledger.persistence.BrowseQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** Serves {@code GET /api/history?correlationId=}: every event of one flow (e.g. a release request and what it caused), paged. */
@Path("/api/history")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class HistoryResource {
    /** The largest (and default) page size. */
    static final int MAX_LIMIT = 1000;

    private final BrowseQueries browse;

    @Inject
    public HistoryResource(BrowseQueries browse) {
        this.browse = browse;
    }

    /**
     * @param correlationId the correlation id (a release request id, an asset's first event id …), required
     * @param afterSeq      exclusive lower bound on seq (the previous page's {@code next}), default 0
     * @param limit         events per page, 1 to {@value #MAX_LIMIT}
     * @return 200 with {@code {"correlationId","events":[HistoryEntry…],"next":<seq or null>}} in chain (seq) order,
     *         dead letters included; 400 without {@code correlationId} or with a limit out of range
     */
    @GET
    public Uni<RestResponse<HistoryPage>> history(@QueryParam("correlationId") String correlationId,
                                                 @QueryParam("afterSeq") @DefaultValue("0") long afterSeq,
                                                 @QueryParam("limit") @DefaultValue("1000") int limit) {
        if (correlationId == null || correlationId.isBlank() || limit < 1 || limit > MAX_LIMIT) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return browse.history(correlationId, afterSeq, limit + 1)
                .map(rows -> RestResponse.ok(HistoryPage.of(correlationId, rows, limit)));
    }
}
