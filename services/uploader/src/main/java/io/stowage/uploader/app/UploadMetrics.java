package io.stowage.uploader.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadTask;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The uploader's Prometheus meters ({@code /q/metrics}):
 * {@code stowage_uploader_uploaded_bytes_total{store}} (bytes written to a store; a skipped object, already present
 * with the same SHA-256, adds nothing) and {@code stowage_uploader_objects_total{store,outcome}} with outcome
 * {@code stored}, {@code skipped}, {@code failed}. Tags carry store names only, never a bucket, key or path.
 */
@ApplicationScoped
public class UploadMetrics {
    private final MeterRegistry registry;

    UploadMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one task's outcome and, when it was written, its bytes. */
    public void record(UploadTask task, UploadOutcome outcome) {
        String result = outcome instanceof UploadOutcome.Stored stored ? (stored.skipped() ? "skipped" : "stored")
                : "failed";
        Counter.builder("stowage.uploader.objects").description("objects the uploader handled, by store and outcome")
                .tag("store", task.store()).tag("outcome", result).register(registry).increment();
        if ("stored".equals(result)) {
            Counter.builder("stowage.uploader.uploaded").baseUnit("bytes")
                    .description("bytes written to a store").tag("store", task.store()).register(registry)
                    .increment(task.bytes());
        }
    }
}
