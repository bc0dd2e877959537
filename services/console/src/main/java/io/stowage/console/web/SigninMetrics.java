package io.stowage.console.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The console's own meter on {@code /q/metrics}: {@code stowage_console_signins_total{outcome}}, one per
 * {@code POST /signin}, outcome {@code signed_in} or {@code refused} (a blank or unknown token). The token itself,
 * and the viewer's name, never become a tag. Page requests by route and status are Quarkus' HTTP server meters
 * ({@code http_server_requests_seconds{method,outcome,status,uri}}, uri the route template).
 */
@ApplicationScoped
public class SigninMetrics {
    private final MeterRegistry registry;

    SigninMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one sign-in attempt. */
    public void attempt(boolean signedIn) {
        Counter.builder("stowage.console.signins").description("sign-in attempts, by outcome")
                .tag("outcome", signedIn ? "signed_in" : "refused").register(registry).increment();
    }
}
