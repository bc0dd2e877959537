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
    Response service(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse() == null ? 502 : e.getResponse().getStatus();
        if (status == 404) {
            // a service's 404 or the router's: name what was asked for, never a client class or the framework's text
            boolean own = !(e instanceof org.jboss.resteasy.reactive.ClientWebApplicationException)
                    && e.getMessage() != null && !e.getMessage().startsWith("HTTP 404");
            return page(404, own ? "not found: " + e.getMessage() : "not found: " + uri.getRequestUri().getRawPath()
                    + " (the ledger or the service asked knows no such thing)");
        }
        LOG.infof("a service answered %d: %s", status, e.getMessage());
        if (!(e instanceof org.jboss.resteasy.reactive.ClientWebApplicationException)) {
            return page(status, e.getMessage());
        }
        String why = status == 401 || status == 403 ? "the services refused this token (" + status + ")"
                : "a service answered " + status;
        return page(status >= 400 && status < 600 ? status : 502, why);
    }

    /**
     * A form refused before any resource ran answers 400 with no body (the CSRF check of {@code quarkus-rest-csrf}: a
     * missing or forged token): the page then says so in one line instead of showing nothing.
     */
    @org.jboss.resteasy.reactive.server.ServerResponseFilter
    public void emptyRefusal(jakarta.ws.rs.container.ContainerRequestContext request,
                             jakarta.ws.rs.container.ContainerResponseContext response) {
        if (response.getStatus() == 400 && !response.hasEntity() && "POST".equals(request.getMethod())) {
            response.setEntity("<!doctype html><title>Refused</title><p class=\"problem\" id=\"problem\">This form was"
                    + " refused: its CSRF token is missing or does not match this session's. Reload the page and send it"
                    + " again.</p>", null, MediaType.TEXT_HTML_TYPE);
        }
    }

    @ServerExceptionMapper
    Response badName(io.stowage.events.InvalidEventException e) {
        return page(400, e.getMessage());
    }

    @ServerExceptionMapper
    Response unreachable(jakarta.ws.rs.ProcessingException e) {
        LOG.warnf("a service cannot be reached: %s", e.getMessage());
        return page(502, unreachableLine(e));
    }

    /**
     * @param e what a call to a service threw before any answer came (a refused connection, a timeout, a reset)
     * @return the one line the page shows: what happened and at which address ({@code host:port}, from the client's
     *         own message when it names one), never a class name or a stack trace; a timeout (connecting or waiting
     *         for the answer) says so; a refused connection says that the service is stopped, restarting or being
     *         taken over by a standby, and to try again
     */
    static String unreachableLine(Throwable e) {
        boolean refused = io.stowage.console.client.FailoverClient.refused(e);
        boolean timeout = false;
        String address = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            timeout |= timedOut(t);
            if (address == null && t.getMessage() != null) {
                java.util.regex.Matcher m = ADDRESS.matcher(t.getMessage());
                address = m.find() ? m.group(1) : null;
            }
        }
        String at = address == null ? "" : " at " + address;
        if (timeout) {
            return "a service did not answer in time" + at;
        }
        if (refused) {
            return "a service cannot be reached: connection refused" + at + " (it is stopped, restarting, or a standby"
                    + " is taking over); try again in a few seconds";
        }
        return "a service cannot be reached" + at + ": the connection failed before an answer came";
    }

    // a timeout by type, as the JDK, Vert.x (its NoStackTraceTimeoutException is a TimeoutException) and Netty throw
    // it; Netty's connect timeout is a ConnectException too, and is named a timeout, not a refusal
    private static boolean timedOut(Throwable t) {
        return t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException
                || t instanceof io.netty.handler.timeout.TimeoutException
                || t instanceof io.netty.channel.ConnectTimeoutException;
    }

    /** {@code host:port} in a network client's message ({@code Connection refused: /127.0.0.1:8085}). */
    private static final java.util.regex.Pattern ADDRESS =
            java.util.regex.Pattern.compile("(?:^|[\\s/])([A-Za-z0-9.\\-]+:[0-9]{1,5})\\b");

    private Response page(int status, String message) {
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE)
                .entity(Templates.problem(Pages.who(viewers.current().orElse(null)), new Views.Problem(status, message)))
                .build();
    }
}
