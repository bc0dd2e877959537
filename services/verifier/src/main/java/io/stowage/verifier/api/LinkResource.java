package io.stowage.verifier.api;

import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.stowage.auth.Roles;
import io.stowage.verifier.app.LinkMaker;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /api/links} with {@code {"key", "store", "expiresInSeconds"}} (operator token): a presigned GET URL for
 * one object, signed with the verifier's read credentials, to hand a file to someone without store credentials (the
 * operator console's "presigned link"). The rules are {@link LinkMaker}'s. The URL is in the answer only: never
 * logged, stored or sent as an event, and the answer says {@code Cache-Control: no-store}.
 */
@Path("/api/links")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class LinkResource {
    private static final Logger LOG = Logger.getLogger(LinkResource.class);
    /** The lifetime when the body names none: 24 hours, in seconds. */
    public static final long DEFAULT_SECONDS = 86_400L;

    private final LinkMaker links;
    private final SecurityIdentity identity;
    private final Clock clock = Clock.systemUTC();

    LinkResource(LinkMaker links, SecurityIdentity identity) {
        this.links = links;
        this.identity = identity;
    }

    /** The body: the object key, the store ({@code primary} when absent) and the URL's lifetime in seconds (24 h). */
    public record Body(String key, String store, Long expiresInSeconds) {
    }

    /**
     * @return 200 with {@code {"key","store","bucket","bytes","sha256","url","expiresInSeconds","expiresAt"}}; 400 for a
     *         missing or malformed key, a store other than primary or replica, or a lifetime outside 1 s–7 days; 403 for
     *         a key outside the allowed prefixes; 409 when the ledger has not proven the copy or the store does not hold
     *         it as recorded; 503 when the ledger or the store cannot be asked. Errors are {@code {"error": one line}}.
     */
    @POST
    @RolesAllowed(Roles.OPERATOR)
    @Blocking
    public Response link(Body body) {
        if (body == null || body.key() == null || body.key().isBlank()) {
            return error(400, "key is required");
        }
        String store = body.store() == null ? "primary" : body.store();
        long seconds = body.expiresInSeconds() == null ? DEFAULT_SECONDS : body.expiresInSeconds();
        Instant now = clock.instant();
        LinkMaker.Link link = links.make(store, body.key(), Duration.ofSeconds(seconds), now);
        if (link.refusal() != null) {
            LOG.infof("refused a presigned link to %s:%s asked by %s: %s", store, body.key(),
                    identity.getPrincipal().getName(), link.reason());
            return error(switch (link.refusal()) {
                case BAD_INPUT -> 400;
                case NOT_ALLOWED -> 403;
                case NOT_PROVEN -> 409;
                case UNAVAILABLE -> 503;
            }, link.reason());
        }
        // the URL itself is never logged: it reads the object until it expires
        LOG.infof("presigned a GET URL for %s:%s (%d s, until %s) asked by %s", store, body.key(), seconds,
                link.expiresAt(), identity.getPrincipal().getName());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key", body.key());
        out.put("store", store);
        out.put("bucket", link.bucket());
        out.put("bytes", link.bytes());
        out.put("sha256", link.sha256());
        out.put("url", link.url().toString());
        out.put("expiresInSeconds", seconds);
        out.put("expiresAt", link.expiresAt().toString());
        return Response.ok(out).header("Cache-Control", "no-store").build();
    }

    private static Response error(int status, String message) {
        return Response.status(status).entity(Map.of("error", message.replaceAll("[\\r\\n]+", " "))).build();
    }
}
