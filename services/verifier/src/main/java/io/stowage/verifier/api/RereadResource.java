package io.stowage.verifier.api;

import io.quarkus.security.identity.SecurityIdentity;
import io.stowage.auth.Roles;
import io.stowage.events.ObjectVerified;
import io.stowage.messaging.EventPublisher;
import io.stowage.verifier.app.ScrubRun;
import io.stowage.verifier.ledgerclient.LedgerUnavailableException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/rereads} with {@code {"assetId": "...", "limit": N}}: re-reads every object of one asset in full now,
 * in every store the ledger holds it in, and sends each result as {@code object.verified} (FULL_READ) before it
 * answers. An operator's way to get fresh evidence without waiting for the rolling scrub: after a dead letter on an
 * evidence topic (the gate denies the asset until every object is re-read in full after it), or to check copies after
 * a repair. Operator token. Blocking: it answers when every object was read, and its results were acknowledged by the
 * broker.
 */
@Path("/api/rereads")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RereadResource {
    private final ScrubRun scrub;
    private final EventPublisher publisher;
    private final SecurityIdentity identity;
    private final Clock clock = Clock.systemUTC();

    RereadResource(ScrubRun scrub, EventPublisher publisher, SecurityIdentity identity) {
        this.scrub = scrub;
        this.publisher = publisher;
        this.identity = identity;
    }

    /** The body: the asset id and, optionally, the most objects to read in this request (1–1000, default 1000). */
    public record Body(String assetId, Integer limit) {
    }

    /**
     * @return 200 with {@code {"assetId","results":[{"eventId","store","key","result","detail"}]}}; 400 without an asset
     *         id or with a limit outside 1–1000; 404 when the ledger holds no object of the asset; 503 when the ledger
     *         cannot be asked (nothing read)
     */
    @POST
    @RolesAllowed(Roles.OPERATOR)
    @io.smallrye.common.annotation.Blocking
    public Response reread(Body body) {
        if (body == null || body.assetId() == null || body.assetId().isBlank()) {
            return Response.status(400).entity(Map.of("error", "assetId is required")).build();
        }
        int limit = body.limit() == null ? 1000 : body.limit();
        if (limit < 1 || limit > 1000) {
            return Response.status(400).entity(Map.of("error", "limit must be from 1 to 1000")).build();
        }
        List<ObjectVerified> results;
        try {
            results = scrub.reread(body.assetId(), clock.instant(), identity.getPrincipal().getName(), limit,
                    publisher::send);
        } catch (LedgerUnavailableException e) {
            return Response.status(503).entity(Map.of("error", "the ledger cannot be asked for the asset's objects: "
                    + e.getMessage())).build();
        }
        if (results.isEmpty()) {
            return Response.status(404).entity(Map.of("error", "the ledger holds no object of " + body.assetId())).build();
        }
        List<Map<String, Object>> out = results.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("eventId", r.meta().eventId());
            m.put("store", r.store());
            m.put("key", r.key());
            m.put("result", r.result().name());
            m.put("detail", r.detail());
            return m;
        }).toList();
        return Response.ok(Map.of("assetId", body.assetId(), "results", out)).build();
    }
}
