package io.stowage.console.session;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;

/**
 * Who is asking: a script's {@code Authorization: Bearer …} (already checked by the services' bearer mechanism from
 * service-auth; an unknown token never gets here, it is answered 401), else the session cookie
 * {@value #COOKIE}, which holds only a server-side session id.
 */
@RequestScoped
public class Viewers {
    /** The session cookie's name. */
    public static final String COOKIE = "stowage-console-session";
    private static final String BEARER = "bearer ";
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(Viewers.class);

    private final SecurityIdentity identity;
    private final CurrentVertxRequest request;
    private final SessionStore sessions;

    Viewers(SecurityIdentity identity, CurrentVertxRequest request, SessionStore sessions) {
        this.identity = identity;
        this.request = request;
        this.sessions = sessions;
    }

    /** @return the viewer, or empty when the request carries neither a valid bearer token nor a live session */
    public Optional<Viewer> current() {
        HttpServerRequest http = request.getCurrent().request();
        String header = http.getHeader("Authorization");
        if (!identity.isAnonymous() && header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.of(TokenCheck.of(identity, header.substring(BEARER.length()).strip()));
        }
        return sessions.find(sessionId());
    }

    /** @return the viewer; @throws SigninRequired when there is none (the page then redirects to the sign-in form) */
    public Viewer require() {
        return current().orElseThrow(SigninRequired::new);
    }

    /**
     * @param action what is asked, for the refusal's message and the log line (e.g. "a release")
     * @return the viewer, an operator
     * @throws SigninRequired when there is no viewer
     * @throws OperatorRequired when the viewer is a reader (answered 403; the refusal is logged, nothing is sent)
     */
    public Viewer requireOperator(String action) {
        Viewer viewer = require();
        if (!viewer.operator()) {
            LOG.infof("refused %s asked by %s (role %s)", action, viewer.name(), viewer.role());
            throw new OperatorRequired(action);
        }
        return viewer;
    }

    /** @return the session id the cookie holds, or null */
    public String sessionId() {
        Cookie cookie = request.getCurrent().request().getCookie(COOKIE);
        return cookie == null ? null : cookie.getValue();
    }
}
