package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.events.ledger.ScrubCandidate;
import io.stowage.events.ledger.ScrubCoverage;
import io.stowage.ledger.persistence.CoverageQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Serves the rolling scrub's two queries: {@code GET /api/coverage} (how much of a store full re-reads have
 * covered in a period, read by {@code stowage status}) and {@code GET /api/coverage/due} (the objects re-read
 * least recently, read by the verifier's scrub).
 */
@Path("/api/coverage")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class CoverageResource {
    /** The largest (and default) number of objects {@code due} answers. */
    static final int MAX_LIMIT = 1000;

    private final CoverageQueries queries;

    @Inject
    public CoverageResource(CoverageQueries queries) {
        this.queries = queries;
    }

    /**
     * @param store  logical store name, required
     * @param period ISO-8601 duration (e.g. {@code P30D}), positive; default 30 days
     * @param at     ISO-8601 instant the figures are for; default now
     * @return 200 with {@link ScrubCoverage}; 400 when store is missing or period / at do not parse
     */
    @GET
    public Uni<RestResponse<ScrubCoverage>> coverage(@QueryParam("store") String store,
                                                     @QueryParam("period") @DefaultValue("P30D") String period,
                                                     @QueryParam("at") String at) {
        try {
            Duration p = Duration.parse(period);
            Instant when = at == null || at.isBlank() ? Instant.now() : Instant.parse(at);
            if (store == null || store.isBlank() || p.isNegative() || p.isZero()) {
                return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
            }
            return queries.coverage(store, when, p).map(RestResponse::ok);
        } catch (DateTimeParseException e) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
    }

    /**
     * @param store logical store name, or absent for every store
     * @param at    ISO-8601 instant; objects uploaded after it are left out; default now
     * @param limit objects to answer, 1 to {@value #MAX_LIMIT}
     * @param asset an asset id, or absent for every asset: only that asset's objects (a re-read on request)
     * @return 200 with {@link ScrubCandidate}s, never-re-read first (oldest upload first), then least recently
     *         re-read first; 400 when the limit is out of range or at does not parse
     */
    @GET
    @Path("/due")
    public Uni<RestResponse<List<ScrubCandidate>>> due(@QueryParam("store") String store, @QueryParam("at") String at,
                                                       @QueryParam("limit") @DefaultValue("1000") int limit,
                                                       @QueryParam("asset") String asset) {
        try {
            Instant when = at == null || at.isBlank() ? Instant.now() : Instant.parse(at);
            if (limit < 1 || limit > MAX_LIMIT) {
                return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
            }
            return queries.due(store == null || store.isBlank() ? null : store,
                    asset == null || asset.isBlank() ? null : asset, when, limit).map(RestResponse::ok);
        } catch (DateTimeParseException e) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
    }
}
