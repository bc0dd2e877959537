package io.stowage.auth;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.spi.runtime.AuthenticationFailureEvent;
import io.quarkus.security.spi.runtime.AuthorizationFailureEvent;
import io.quarkus.security.spi.runtime.SecurityEvent;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Observes Quarkus Security's failure events (a malformed header, an unknown or expired token, an anonymous or
 * under-privileged caller of a secured endpoint), logs one line (method, path, reason, token name; never a token) and fires a
 * {@link RefusedRequest} for the service to record, e.g. as a {@code release.refused} event.
 */
@Singleton
public class RefusalListener {
    private static final Logger LOG = Logger.getLogger(RefusalListener.class);

    private final Event<RefusedRequest> refused;

    RefusalListener(Event<RefusedRequest> refused) {
        this.refused = refused;
    }

    void onAuthentication(@Observes AuthenticationFailureEvent event) {
        Throwable failure = event.getAuthenticationFailure();
        String reason = BearerTokenMechanism.reasonOf(failure);
        publish(event, 401, reason, nameOf(failure, TokenIdentityProvider.NAME_ATTRIBUTE),
                nameOf(failure, TokenIdentityProvider.ROLE_ATTRIBUTE));
    }

    /** @return an attribute of the refusal (the expired token's name or role), or null */
    private static String nameOf(Throwable failure, String attribute) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof io.quarkus.security.AuthenticationFailedException refused && refused.getAttribute(attribute) != null) {
                return refused.getAttribute(attribute);
            }
        }
        return null;
    }

    void onAuthorization(@Observes AuthorizationFailureEvent event) {
        SecurityIdentity identity = event.getSecurityIdentity();
        if (identity == null || identity.isAnonymous()) {
            publish(event, 401, RefusedRequest.MISSING_TOKEN, null, null);
        } else {
            publish(event, 403, RefusedRequest.INSUFFICIENT_ROLE, identity.getPrincipal().getName(),
                    identity.getAttribute(TokenIdentityProvider.ROLE_ATTRIBUTE));
        }
    }

    private void publish(SecurityEvent event, int status, String reason, String name, String role) {
        RoutingContext context = routingContext(event);
        if (context == null) {
            LOG.warnf("refused a request (%d %s) outside HTTP; not recorded", status, reason);
            return;
        }
        String remote = context.request().remoteAddress() == null ? null : context.request().remoteAddress().toString();
        RefusedRequest request = new RefusedRequest(context.request().method().name(), context.normalizedPath(), status,
                reason, name, role, remote);
        LOG.infof("refused %s %s: %d %s (token %s, role %s, from %s)", request.method(), request.path(), status, reason,
                name == null ? "-" : name, role == null ? "-" : role, remote);
        refused.fire(request);
    }

    private static RoutingContext routingContext(SecurityEvent event) {
        RoutingContext context = HttpSecurityUtils.getRoutingContextAttribute(event.getEventProperties());
        if (context != null) {
            return context;
        }
        return event.getEventProperties().values().stream().filter(RoutingContext.class::isInstance)
                .map(RoutingContext.class::cast).findFirst().orElse(null);
    }
}
