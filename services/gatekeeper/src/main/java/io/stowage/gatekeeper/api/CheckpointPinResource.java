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
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.Map;

/**
 * {@code POST /api/checkpoints/pins} with {@code {"experiment","run","step","pinned":true|false}}: the operator's way to
 * pin (retention never expires a pinned step) or unpin a stored checkpoint step, recording who asked. Needs an operator
 * token; sent as {@code checkpoint.pinned} (requestedBy = the token's configured name), which the ledger records. A
 * refused call (401/403) sends nothing but {@code release.refused}.
 */
@Path("/api/checkpoints/pins")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CheckpointPinResource {
    private static final Logger LOG = Logger.getLogger(CheckpointPinResource.class);

    private final EventPublisher sender;
    private final SecurityIdentity identity;
    private final Clock clock;

    CheckpointPinResource(EventPublisher sender, SecurityIdentity identity, Clock clock) {
        this.sender = sender;
        this.identity = identity;
        this.clock = clock;
    }

    /** The body: the step and whether to pin (true) or unpin (false) it. */
    public record Body(String experiment, String run, Long step, Boolean pinned) {
    }

    /**
     * @return 202 with {@code {"assetId","eventId","pinned","requestedBy"}} once Kafka acknowledged the event; 400 with
     *         {@code {"error"}} when a field is missing or a name is invalid
     */
    @POST
    @RolesAllowed(Roles.OPERATOR)
    @io.smallrye.common.annotation.Blocking
    public Response pin(Body body) {
        if (body == null || body.step() == null || body.pinned() == null) {
            return Response.status(400).entity(Map.of("error", "experiment, run, step and pinned are required")).build();
        }
        String who = identity.getPrincipal().getName();
        CheckpointPinned event;
        try {
            String assetId = AssetIds.checkpoint(body.experiment(), body.run(), body.step());
            event = CheckpointPinned.of(EventMeta.first(assetId, clock), body.experiment(), body.run(), body.step(),
                    body.pinned(), who);
        } catch (InvalidEventException e) {
            return Response.status(400).entity(Map.of("error", e.getMessage())).build();
        }
        sender.send(event);
        LOG.infof("sent %s event %s asset %s pinned=%s requested by %s", event.topic(), event.meta().eventId(),
                event.assetId(), body.pinned(), who);
        return Response.accepted(Map.of("assetId", event.assetId(), "eventId", event.meta().eventId(),
                "pinned", body.pinned(), "requestedBy", who)).build();
    }
}
