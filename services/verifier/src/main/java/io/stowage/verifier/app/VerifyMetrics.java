package io.stowage.verifier.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The verifier's Prometheus meters ({@code /q/metrics}), counted for every result it produces (after an upload and
 * by the scrub): {@code stowage_verifier_results_total{store,method,result}} (method {@code HEAD} or
 * {@code FULL_READ}; result {@code OK}, {@code MISMATCH}, {@code MISSING}, …) and
 * {@code stowage_verifier_reread_bytes_total{store}}, the bytes a full read actually read back. Tags carry store
 * names only, never a bucket or key.
 */
@ApplicationScoped
public class VerifyMetrics {
    private final MeterRegistry registry;

    VerifyMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one published result and, for a full read, the bytes it read. */
    public void record(ObjectVerified result) {
        Counter.builder("stowage.verifier.results").description("verification results by store, method and outcome")
                .tag("store", result.store()).tag("method", result.method().name())
                .tag("result", result.result().name()).register(registry).increment();
        if (result.method() == VerifyMethod.FULL_READ && result.actualBytes() > 0) {
            Counter.builder("stowage.verifier.reread").baseUnit("bytes").description("bytes re-read in full")
                    .tag("store", result.store()).register(registry).increment(result.actualBytes());
        }
    }
}
