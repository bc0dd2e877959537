package io.stowage.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** The provider-adapter's read API as the console calls it, with the signed-in person's token. */
@RegisterRestClient(configKey = "provider-adapter")
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface ProviderApi {
    /** Every volume record ({@code [{"id","state",…}…]}), destroyed ones included. */
    @GET
    @Path("/volumes")
    JsonNode volumes(@HeaderParam("Authorization") String authorization);
}
