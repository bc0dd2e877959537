package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.events.InvalidEventException;
import io.stowage.ledger.domain.MilestoneArchive;
import io.stowage.ledger.persistence.ArchiveQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.Map;

/**
 * Serves the text of a milestone archive ({@link MilestoneArchive}): consumed by {@code stowage audit archive}, which
 * compresses it, writes it to staging and publishes {@code archive.published} (the ledger holds no store rights).
 */
@Path("/api/archives")
@RolesAllowed(Roles.READER)
public class ArchiveResource {
    private final ArchiveQueries archives;

    @Inject
    public ArchiveResource(ArchiveQueries archives) {
        this.archives = archives;
    }

    /**
     * @param asset {@code run/<experiment>/<run>} or {@code dataset/<name>/<revision>}
     * @return 200 {@code application/x-ndjson}: the header line and one line per event of the asset in chain order;
     *         400 {@code {"error":…}} for another asset shape; 409 {@code {"error":…}} when one of its rows does not
     *         match its chain link
     */
    @GET
    @Path("/export")
    public Uni<RestResponse<Object>> export(@QueryParam("asset") String asset) {
        MilestoneArchive.Scope scope;
        try {
            scope = MilestoneArchive.Scope.of(asset);
        } catch (InvalidEventException e) {
            return Uni.createFrom().item(RestResponse.ResponseBuilder.<Object>create(RestResponse.Status.BAD_REQUEST)
                    .entity(Map.of("error", e.getMessage())).type("application/json").build());
        }
        return archives.export(scope)
                .map(text -> RestResponse.ResponseBuilder.<Object>ok(text, "application/x-ndjson").build())
                .onFailure(IllegalStateException.class).recoverWithItem(e -> RestResponse.ResponseBuilder
                        .<Object>create(RestResponse.Status.CONFLICT).entity(Map.of("error", e.getMessage()))
                        .type("application/json").build());
    }
}
