package io.stowage.provideradapter.api;

import io.stowage.events.ProviderActionFailed;
import io.stowage.provideradapter.domain.lifecycle.LifecycleResult;
import io.stowage.messaging.EventPublisher;
import jakarta.ws.rs.core.Response;

import java.util.Map;

/** Turns a lifecycle step into an HTTP answer after sending its events; errors are {@code {"error": one line}}. */
final class Errors {
    private Errors() {
    }

    static Response of(int status, String message) {
        return Response.status(status).entity(Map.of("error", message.replaceAll("[\\r\\n]+", " "))).build();
    }

    /** Sends the step's events, then answers {@code okStatus} with its value, or 422/502 for a provider failure. */
    static Response answer(LifecycleResult<?> result, EventPublisher sender, int okStatus) {
        sender.sendAll(result.events());
        if (result.succeeded()) {
            return Response.status(okStatus).entity(result.value()).build();
        }
        boolean permanent = result.events().stream().filter(ProviderActionFailed.class::isInstance)
                .map(ProviderActionFailed.class::cast).anyMatch(ProviderActionFailed::permanent);
        boolean providerFailure = result.events().stream().anyMatch(ProviderActionFailed.class::isInstance);
        return of(!providerFailure ? 409 : permanent ? 422 : 502, result.error());
    }
}
