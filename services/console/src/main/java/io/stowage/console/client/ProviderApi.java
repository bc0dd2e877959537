package io.stowage.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/**
 * The provider-adapter's API as the console calls it, with the signed-in person's token: its reads, the retention plan
 * (reader) and the retention apply (operator; the provider-adapter refuses a reader's).
 */
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

    /**
     * A run's retention plan now, nothing sent or deleted. Body {@code {"experiment","run","policy":{keepLast,keepBest,
     * metric,mode,keepEvery,keepInterval,temporaryTtl}}}; answer {@code {"experiment","run","policy","latestStep",
     * "evaluatedAt","steps":[{"step","decision","keptBy","verified","metrics","tags","pinned","stores":{STORE:{"keys",
     * "bytes"}},"promotedTo"}…],"freed":{STORE:{"keys","bytes"}}}}. 400 for a bad policy.
     */
    @POST
    @Path("/retention/plan")
    @Consumes(MediaType.APPLICATION_JSON)
    JsonNode retentionPlan(@HeaderParam("Authorization") String authorization, Map<String, Object> body);

    /**
     * Applies a run's retention: the body of {@link #retentionPlan} plus {@code "expectExpire":[step…]}, the steps of the
     * plan the operator confirmed; 409 (nothing sent or deleted) when the decision now would expire another step.
     * Answer {@code {"decisionId","planSha256","latestStep","plan","expired":[{"step","eventId","objects","totalBytes"}…],
     * "refused":[{"step","key","reason"}…]}}.
     */
    @POST
    @Path("/retention/apply")
    @Consumes(MediaType.APPLICATION_JSON)
    JsonNode retentionApply(@HeaderParam("Authorization") String authorization, Map<String, Object> body);
}
