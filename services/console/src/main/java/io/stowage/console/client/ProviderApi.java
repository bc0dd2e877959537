package io.stowage.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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

    /** Every pod record ({@code [{"id","costPerHourUsd","terminatedAt",…}…]}), terminated ones included. */
    @GET
    @Path("/pods")
    JsonNode pods(@HeaderParam("Authorization") String authorization);

    /** Every run cap ({@code [{"runId","capUsd","maxSeconds","createdAt","checkpointRequestedAt","triggeredAt"}…]}). */
    @GET
    @Path("/runs")
    JsonNode runs(@HeaderParam("Authorization") String authorization);

    /**
     * The cost report now: {@code {"at","lines":[{"kind","id","costUsd","monthlyUsd",…}…],"totalCostUsd",
     * "liveMonthlyUsd","archive":{"archivedBytes","storeMonthlyUsd","onVolumeMonthlyUsd","monthlySavingUsd"}}}.
     */
    @GET
    @Path("/cost")
    JsonNode cost(@HeaderParam("Authorization") String authorization, @QueryParam("archivedBytes") long archivedBytes);
}
