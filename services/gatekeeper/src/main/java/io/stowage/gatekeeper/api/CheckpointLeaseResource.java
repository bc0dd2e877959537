package io.stowage.gatekeeper.api;

import io.quarkus.security.identity.SecurityIdentity;
import io.stowage.auth.Roles;
import io.stowage.events.AssetIds;
import io.stowage.events.CheckpointPinned;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.messaging.EventPublisher;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * {@code POST /api/checkpoints/leases} with {@code {"experiment","run","step","seconds"}}: a fetch for a resume leases
 * the step it reads, and retention keeps a leased step until the lease runs out (now, by this service's clock, plus
 * {@code seconds}). A lease only keeps data, so a reader token may take one (an operator token too); it is sent as a
 * {@code checkpoint.pinned} with {@code leaseUntil} (requestedBy = the token's name), which the ledger records without
 * touching the step's pin. {@code seconds} runs from 1 to {@code stowage.gatekeeper.lease-max} (default {@code P7D}), so
 * that no reader can hold a step for good: only an operator's pin does that.
 */
@Path("/api/checkpoints/leases")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CheckpointLeaseResource {
    private static final Logger LOG = Logger.getLogger(CheckpointLeaseResource.class);

    private final EventPublisher sender;
    private final SecurityIdentity identity;
    private final Clock clock;
    private final Duration max;

    CheckpointLeaseResource(EventPublisher sender, SecurityIdentity identity, Clock clock,
                            @ConfigProperty(name = "stowage.gatekeeper.lease-max", defaultValue = "P7D") Duration max) {
        this.sender = sender;
        this.identity = identity;
        this.clock = clock;
        this.max = max;
    }

    /** The body: the step and how long to keep it, in seconds. */
    public record Body(String experiment, String run, Long step, Long seconds) {
    }

    /**
     * @return 202 with {@code {"assetId","eventId","leaseUntil","requestedBy"}} once Kafka acknowledged the event; 400
     *         with {@code {"error"}} when a field is missing, a name is invalid or {@code seconds} is outside 1 to the
     *         maximum
     */
    @POST
    @RolesAllowed(Roles.READER)
    @io.smallrye.common.annotation.Blocking
    public Response lease(Body body) {
        if (body == null || body.step() == null || body.seconds() == null) {
            return Response.status(400).entity(Map.of("error", "experiment, run, step and seconds are required")).build();
        }
        if (body.seconds() < 1 || body.seconds() > max.toSeconds()) {
            return Response.status(400).entity(Map.of("error", "seconds must be from 1 to " + max.toSeconds()
                    + " (stowage.gatekeeper.lease-max " + max + "); a step kept for longer needs an operator's pin")).build();
        }
        String who = identity.getPrincipal().getName();
        CheckpointPinned event;
        try {
            String assetId = AssetIds.checkpoint(body.experiment(), body.run(), body.step());
            EventMeta meta = EventMeta.first(assetId, clock);
            Instant until = meta.time().plusSeconds(body.seconds());
            event = CheckpointPinned.lease(meta, body.experiment(), body.run(), body.step(), who, until);
        } catch (InvalidEventException e) {
            return Response.status(400).entity(Map.of("error", e.getMessage())).build();
        }
        sender.send(event);
        LOG.infof("sent %s event %s asset %s lease until %s requested by %s", event.topic(), event.meta().eventId(),
                event.assetId(), event.leaseUntil(), who);
        return Response.accepted(Map.of("assetId", event.assetId(), "eventId", event.meta().eventId(),
                "leaseUntil", event.leaseUntil().toString(), "requestedBy", who)).build();
    }
}
