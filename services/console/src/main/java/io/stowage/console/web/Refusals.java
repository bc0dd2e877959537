package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.ClientWebApplicationException;

import java.util.function.Supplier;

/**
 * Calls a service for an action a person asked for and turns its refusal of the request itself (400, 403, 404, 409,
 * 413, 503)
 * into a page with the service's own one-line reason ({@code {"error": …}}), as the person needs it; other answers go
 * to {@link Failures} unchanged.
 */
final class Refusals {
    private Refusals() {
    }

    /**
     * @param call the service call
     * @return its answer
     * @throws WebApplicationException with the service's status and reason for 400, 403, 404, 409, 413 and 503
     */
    static JsonNode asked(Supplier<JsonNode> call) {
        try {
            return call.get();
        } catch (ClientWebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (status == 400 || status == 403 || status == 404 || status == 409 || status == 413 || status == 503) {
                String reason;
                try {
                    reason = e.getResponse().readEntity(JsonNode.class).path("error").asText("");
                } catch (RuntimeException unreadable) {
                    reason = "";
                }
                throw new WebApplicationException(reason.isEmpty() ? "the service answered " + status : reason,
                        Response.status(status).build());
            }
            throw e;
        }
    }
}
