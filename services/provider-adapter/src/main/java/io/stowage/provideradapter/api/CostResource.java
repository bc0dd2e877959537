package io.stowage.provideradapter.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.provideradapter.domain.cost.CostReport;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.lifecycle.CapSweep;
import io.stowage.messaging.EventPublisher;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * {@code GET /api/cost?at=<ISO instant>&archivedBytes=<n>}: the {@link CostReport} (default: now, 0 bytes; the CLI
 * sums the primary store's bytes from the ledger). {@code POST /api/sweep?at=<ISO instant>}: checks every volume and
 * pod against its time to live and caps at that instant (default now), acts, and answers what it did.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Roles.READER)
public class CostResource {
    private final ResourceStore store;
    private final CostCalculator costs;
    private final CapSweep sweep;
    private final EventPublisher sender;
    private final boolean sweepAtAllowed;

    CostResource(ResourceStore store, CostCalculator costs, CapSweep sweep, EventPublisher sender,
                 io.stowage.provideradapter.ProviderAdapterConfig config) {
        this.sweepAtAllowed = config.sweepAtAllowed();
        this.store = store;
        this.costs = costs;
        this.sweep = sweep;
        this.sender = sender;
    }

    @GET
    @Path("/cost")
    public Response cost(@QueryParam("at") String at, @QueryParam("archivedBytes") Long archivedBytes) {
        Instant when;
        try {
            when = at == null ? Clock.systemUTC().instant() : Instant.parse(at);
        } catch (DateTimeParseException e) {
            return Errors.of(400, "at is not an ISO-8601 instant: " + at);
        }
        if (archivedBytes != null && archivedBytes < 0) {
            return Errors.of(400, "archivedBytes is negative");
        }
        return Response.ok(CostReport.of(store.volumes(), store.pods(), archivedBytes == null ? 0 : archivedBytes,
                when, costs)).build();
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/sweep")
    public Response sweep(@QueryParam("at") String at) {
        if (at != null && !sweepAtAllowed) {
            return Errors.of(403, "sweeping at another instant is off (stowage.provider-adapter.sweep-at-allowed)");
        }
        Instant when;
        try {
            when = at == null ? Clock.systemUTC().instant() : Instant.parse(at);
        } catch (DateTimeParseException e) {
            return Errors.of(400, "at is not an ISO-8601 instant: " + at);
        }
        CapSweep.Sweep done = sweep.run(when);
        sender.sendAll(done.events());
        return Response.ok(Map.of("at", done.at().toString(), "actions", done.actions(),
                "events", done.events().stream().map(e -> e.topic() + " " + e.meta().eventId()).toList())).build();
    }
}
