package io.stowage.console.web;

import io.quarkus.qute.TemplateInstance;
import io.stowage.console.ConsoleConfig;
import io.stowage.console.session.SessionStore;
import io.stowage.console.session.TokenCheck;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.Optional;

/**
 * {@code GET /signin} (the form), {@code POST /signin} (a bearer token in, a session cookie out) and
 * {@code POST /signout}. The cookie holds a random session id only: HttpOnly, SameSite=Strict, path {@code /}.
 */
@Path("/")
public class SigninResource {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SigninResource.class);

    private final TokenCheck tokens;
    private final SessionStore sessions;
    private final Viewers viewers;
    private final ConsoleConfig config;
    private final SigninMetrics metrics;

    SigninResource(TokenCheck tokens, SessionStore sessions, Viewers viewers, ConsoleConfig config,
                   SigninMetrics metrics) {
        this.tokens = tokens;
        this.sessions = sessions;
        this.viewers = viewers;
        this.config = config;
        this.metrics = metrics;
    }

    /** @return the sign-in form */
    @GET
    @Path("signin")
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance form(@QueryParam("next") String next) {
        return Templates.signin(null, safeNext(next));
    }

    /** @return 303 to {@code next} with a new session cookie; 401 and the form again for an unknown token */
    @POST
    @Path("signin")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public Response signin(@FormParam("token") String token, @FormParam("next") String next) {
        Optional<Viewer> viewer = tokens.check(token);
        metrics.attempt(viewer.isPresent());
        if (viewer.isEmpty()) {
            LOG.info("refused a sign-in: unknown token");
            return Response.status(401).entity(Templates.signin("That token is not a reader's or an operator's.",
                    safeNext(next))).build();
        }
        sessions.close(viewers.sessionId());
        String id = sessions.open(viewer.get());
        LOG.infof("signed in %s (%s)", viewer.get().name(), viewer.get().role());
        return Response.seeOther(URI.create(safeNext(next))).cookie(cookie(id, (int) config.sessionTtl().toSeconds()))
                .build();
    }

    /** @return 303 to the sign-in form; the session is ended and the cookie cleared */
    @POST
    @Path("signout")
    public Response signout() {
        sessions.close(viewers.sessionId());
        return Response.seeOther(URI.create("/signin")).cookie(cookie("", 0)).build();
    }

    private NewCookie cookie(String value, int maxAge) {
        return new NewCookie.Builder(Viewers.COOKIE).value(value).path("/").httpOnly(true).secure(config.secureCookie())
                .sameSite(NewCookie.SameSite.STRICT).maxAge(maxAge).build();
    }

    /** Only a local path: a sign-in never redirects to another site. */
    static String safeNext(String next) {
        if (next == null || !next.startsWith("/") || next.startsWith("//") || next.contains("\\")) {
            return "/";
        }
        return next;
    }
}
