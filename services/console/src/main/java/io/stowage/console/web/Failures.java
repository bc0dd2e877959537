package io.stowage.console.web;

import io.stowage.console.session.OperatorRequired;
import io.stowage.console.session.SigninRequired;
import io.stowage.console.session.Viewers;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * How the pages fail: no viewer is a 303 to {@code /signin?next=…}; a reader asking for an operator action is a 403
 * page; a service's refusal or failure is a page with its status, never a stack trace.
 */
public class Failures {
    private static final Logger LOG = Logger.getLogger(Failures.class);

    private final Viewers viewers;

    Failures(Viewers viewers) {
        this.viewers = viewers;
    }

    @ServerExceptionMapper
    Response signin(SigninRequired e, UriInfo uri) {
        String next = uri.getRequestUri().getRawPath() + (uri.getRequestUri().getRawQuery() == null ? ""
                : "?" + uri.getRequestUri().getRawQuery());
        return Response.seeOther(URI.create("/signin?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8))).build();
    }

    @ServerExceptionMapper
    Response operator(OperatorRequired e) {
        return page(403, e.getMessage());
    }

    @ServerExceptionMapper
    Response service(WebApplicationException e) {
        int status = e.getResponse() == null ? 502 : e.getResponse().getStatus();
        if (status == 404) {
            return page(404, "not found: " + e.getMessage());
        }
        LOG.infof("a service answered %d: %s", status, e.getMessage());
        if (!(e instanceof org.jboss.resteasy.reactive.ClientWebApplicationException)) {
            return page(status, e.getMessage());
        }
        String why = status == 401 || status == 403 ? "the services refused this token (" + status + ")"
                : "a service answered " + status;
        return page(status >= 400 && status < 600 ? status : 502, why);
    }

    @ServerExceptionMapper
    Response badName(io.stowage.events.InvalidEventException e) {
        return page(400, e.getMessage());
    }

    @ServerExceptionMapper
    Response unreachable(jakarta.ws.rs.ProcessingException e) {
        LOG.warnf("a service cannot be reached: %s", e.getMessage());
        return page(502, "a service cannot be reached: " + e.getMessage());
    }

    private Response page(int status, String message) {
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE)
                .entity(Templates.problem(Pages.who(viewers.current().orElse(null)), new Views.Problem(status, message)))
                .build();
    }
}
