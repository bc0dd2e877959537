package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.auth.Roles;
import io.stowage.ledger.domain.RefusalRecord;
import io.stowage.ledger.persistence.LedgerReleaseRefusal;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;

/**
 * {@code GET /api/refusals?limit=100}: the release requests refused for a missing, unknown or under-privileged
 * bearer token, newest first, as {@link RefusalRecord}s.
 */
@Path("/api/refusals")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class RefusalResource {

    /** @return 200 with up to {@code limit} (1–1000) refusals, newest first; 400 for a limit outside 1–1000 */
    @GET
    public Uni<RestResponse<List<RefusalRecord>>> list(@QueryParam("limit") @DefaultValue("100") int limit) {
        if (limit < 1 || limit > 1000) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return LedgerReleaseRefusal.newest(limit).map(RestResponse::ok);
    }
}
