package io.stowage.gatekeeper.api;

import io.quarkus.security.identity.SecurityIdentity;
import io.stowage.auth.Roles;
import io.stowage.events.EventMeta;
import io.stowage.events.ReleaseRequested;
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
import java.util.UUID;

/**
 * {@code POST /api/releases} with {@code {"path":"/abs/dir","dryRun":false}}: the operator's way to ask for a release
 * that records who asked. Needs an operator token; the request is sent as {@code volume.release.requested} (requestedBy = the
 * token's configured name) and decided by this service's gate like any other. A refused call (401/403) sends nothing
 * but {@code release.refused} ({@link io.stowage.messaging.RefusalRecorder}).
 */
@Path("/api/releases")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ReleaseRequestResource {
    private static final Logger LOG = Logger.getLogger(ReleaseRequestResource.class);

    private final EventPublisher sender;
    private final SecurityIdentity identity;
    private final Clock clock;

    ReleaseRequestResource(EventPublisher sender, SecurityIdentity identity, Clock clock) {
        this.sender = sender;
        this.identity = identity;
        this.clock = clock;
    }

    /** The body: the absolute directory and whether only to evaluate the gate. */
    public record Body(String path, boolean dryRun) {
    }

    /**
     * @return 202 with {@code {"requestId","eventId","requestedBy"}} once Kafka acknowledged the request; 400 with
     *         {@code {"error"}} when the path is missing or not absolute
     */
    @POST
    @RolesAllowed(Roles.OPERATOR)
    @io.smallrye.common.annotation.Blocking
    public Response request(Body body) {
        if (body == null || body.path() == null || !body.path().startsWith("/")) {
            return Response.status(400).entity(Map.of("error", "path must be an absolute directory")).build();
        }
        String requestId = UUID.randomUUID().toString();
        String who = identity.getPrincipal().getName();
        ReleaseRequested event = ReleaseRequested.of(EventMeta.first(requestId, clock), requestId, body.path(),
                body.dryRun(), who);
        sender.send(event);
        LOG.infof("sent %s event %s asset %s requested by %s dryRun=%s", event.topic(), event.meta().eventId(),
                event.assetId(), who, body.dryRun());
        return Response.accepted(Map.of("requestId", requestId, "eventId", event.meta().eventId(), "requestedBy", who))
                .build();
    }
}
