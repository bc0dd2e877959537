package io.stowage.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/**
 * The gatekeeper's API as the console calls it: the releasable directories, and release requests
 * ({@code POST /api/releases}, the path {@code stowage release} takes), with the signed-in person's token.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface GatekeeperApi {
    /** {@code [{"path","root","files","bytes"}…]}. */
    @GET
    @Path("/volume-directories")
    JsonNode directories(@HeaderParam("Authorization") String authorization);

    /** Sends {@code {"path","dryRun"}}; answers 202 {@code {"requestId","eventId","requestedBy"}}; 403 for a reader. */
    @POST
    @Path("/releases")
    @Consumes(MediaType.APPLICATION_JSON)
    JsonNode release(@HeaderParam("Authorization") String authorization, Map<String, Object> body);
}
