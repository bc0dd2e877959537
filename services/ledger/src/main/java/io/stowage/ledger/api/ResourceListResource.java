package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.ledger.domain.ResourceRecord;
import io.stowage.ledger.persistence.ResourceProjectionWriter;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;

/** {@code GET /api/resources?kind=volume|pod}: the provider volumes and pods the ledger knows, oldest first. */
@Path("/api/resources")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class ResourceListResource {
    private final ResourceProjectionWriter resources;

    @Inject
    public ResourceListResource(ResourceProjectionWriter resources) {
        this.resources = resources;
    }

    /** @return 200 with the rows; 400 for a kind other than volume or pod */
    @GET
    public Uni<RestResponse<List<ResourceRecord>>> list(@QueryParam("kind") String kind) {
        if (kind != null && !kind.equals("volume") && !kind.equals("pod")) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return resources.list(kind).map(RestResponse::ok);
    }
}
