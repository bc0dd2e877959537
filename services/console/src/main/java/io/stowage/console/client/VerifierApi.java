package io.stowage.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/**
 * The verifier's API as the console calls it, with the signed-in person's token: presigned links (operator) and stored
 * member manifests (reader).
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface VerifierApi {
    /**
     * Sends {@code {"key","store","expiresInSeconds"}}; answers {@code {"key","store","bucket","bytes","sha256","url",
     * "expiresInSeconds","expiresAt"}}; 400 bad input, 403 a key outside the allowed prefixes (or a reader), 409 a copy
     * the ledger has not proven or the store does not hold as recorded; errors are {@code {"error": one line}}.
     */
    @POST
    @Path("/links")
    @Consumes(MediaType.APPLICATION_JSON)
    JsonNode link(@HeaderParam("Authorization") String authorization, Map<String, Object> body);

    /**
     * {@code {"key","store","sha256","bytes","total","members":[{"path","bytes","sha256"}…]}}: the first {@code limit}
     * entries of a stored member manifest the ledger records, read and matched to the ledger's SHA-256; 404 when the
     * ledger records none at the key, 409 when the stored bytes are not as recorded.
     */
    @GET
    @Path("/members")
    JsonNode members(@HeaderParam("Authorization") String authorization, @QueryParam("key") String key,
                     @QueryParam("store") String store, @QueryParam("limit") int limit);
}
