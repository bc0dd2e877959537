package io.stowage.provideradapter.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.resource.RunCap;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;

/**
 * {@code PUT /api/runs/{runId}/cap} sets a run's hard caps ({@code {"capUsd": 50, "maxSeconds": 259200,
 * "capGpuHours": 8}}, any of them; replaces an earlier cap, which starts afresh); {@code GET /api/runs} lists
 * them. The cap sweep enforces them.
 */
@Path("/api/runs")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Roles.READER)
public class RunResource {
    private final ResourceStore store;

    RunResource(ResourceStore store) {
        this.store = store;
    }

    /** @return 200 with the {@link RunCap}; 400 for a bad run id or cap, or no cap given */
    @RolesAllowed(Roles.OPERATOR)
    @PUT
    @Path("/{runId}/cap")
    public Response cap(@PathParam("runId") String runId, CapRequest request) {
        try {
            if (request == null || request.capUsd() == null && request.maxSeconds() <= 0
                    && request.capGpuHours() == null) {
                return Errors.of(400, "give capUsd, maxSeconds, capGpuHours or several");
            }
            RunCap cap = new RunCap(runId, request.capUsd(), request.maxSeconds(), request.capGpuHours(),
                    Clock.systemUTC().instant(), null, null);
            store.save(cap);
            return Response.ok(cap).build();
        } catch (IllegalArgumentException e) {
            return Errors.of(400, e.getMessage());
        }
    }

    /** @return every run cap */
    @GET
    public List<RunCap> list() {
        return store.runCaps();
    }

    /**
     * The body of {@code PUT /api/runs/{runId}/cap}: capUsd in US dollars (null = none), maxSeconds (0 = none),
     * capGpuHours in GPU hours (null = none).
     */
    public record CapRequest(BigDecimal capUsd, long maxSeconds, BigDecimal capGpuHours) {
    }
}
