package io.stowage.auth;

import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The answers of a refused API call, as small JSON that says why and never holds a token:
 * 401 {@code {"error":"unauthorized","reason":"missing-token"}} (with {@code WWW-Authenticate: Bearer realm="stowage"})
 * for an anonymous caller of a secured endpoint, and 403
 * {@code {"error":"forbidden","reason":"role reader may not call this endpoint"}} for a known token whose role is too
 * low. A token refused at authentication (malformed, unknown, expired) is answered by {@link BearerTokenMechanism}
 * with the same 401 shape.
 */
public class RefusalAnswers {

    @ServerExceptionMapper
    Response unauthorized(UnauthorizedException e, RoutingContext context) {
        String reason = context.get(BearerTokenMechanism.REASON_KEY);
        return Response.status(401).header("WWW-Authenticate", BearerTokenMechanism.CHALLENGE)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(unauthorizedBody(reason != null ? reason : RefusedRequest.MISSING_TOKEN)).build();
    }

    @ServerExceptionMapper
    Response forbidden(ForbiddenException e, RoutingContext context) {
        String role = context.user() instanceof QuarkusHttpUser user ? roleOf(user.getSecurityIdentity()) : null;
        return Response.status(403).type(MediaType.APPLICATION_JSON_TYPE).entity(forbiddenBody(role)).build();
    }

    /** @return {@code {"error":"unauthorized","reason":"<reason>"}}; the reason is one of {@link RefusedRequest}'s codes */
    public static String unauthorizedBody(String reason) {
        return "{\"error\":\"unauthorized\",\"reason\":\"" + reason + "\"}";
    }

    /** @return {@code {"error":"forbidden","reason":"role <role> may not call this endpoint"}} */
    public static String forbiddenBody(String role) {
        String who = role != null && role.matches("[a-z]{1,16}") ? "role " + role : "this token's role";
        return "{\"error\":\"forbidden\",\"reason\":\"" + who + " may not call this endpoint\"}";
    }

    private static String roleOf(SecurityIdentity identity) {
        return identity == null ? null : identity.getAttribute(TokenIdentityProvider.ROLE_ATTRIBUTE);
    }
}
