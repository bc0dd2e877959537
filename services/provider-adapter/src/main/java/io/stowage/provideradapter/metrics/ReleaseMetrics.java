package io.stowage.provideradapter.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.ReleaseMeter;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;

/**
 * The provider-adapter's release meters on {@code /q/metrics}, counted once per outcome decided (an outcome answered
 * again for a request already done adds nothing): {@code stowage_provider_adapter_releases_total{outcome}} and
 * {@code stowage_provider_adapter_release_seconds{outcome}} with outcome {@code released} or {@code failed}; for a
 * {@code volume.released}, {@code stowage_provider_adapter_freed_bytes_total} and
 * {@code stowage_provider_adapter_deleted_files_total} (its {@code totalBytes} and {@code fileCount}: the approved
 * files deleted). A failed release adds no bytes or files. Tags never carry a path or request id.
 */
@ApplicationScoped
public class ReleaseMetrics implements ReleaseMeter {
    private final MeterRegistry registry;

    ReleaseMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void decided(StowageEvent outcome, long nanos) {
        String result = outcome instanceof VolumeReleased ? "released" : "failed";
        Counter.builder("stowage.provider.adapter.releases").description("release outcomes decided, by outcome")
                .tag("outcome", result).register(registry).increment();
        Timer.builder("stowage.provider.adapter.release").description("duration of one release's re-check and deletion")
                .tag("outcome", result).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofHours(1))
                .register(registry).record(Duration.ofNanos(nanos));
        if (outcome instanceof VolumeReleased released) {
            Counter.builder("stowage.provider.adapter.freed").baseUnit("bytes").description("bytes of approved files deleted")
                    .register(registry).increment(released.totalBytes());
            Counter.builder("stowage.provider.adapter.deleted.files").description("approved files deleted")
                    .register(registry).increment(released.fileCount());
        }
    }
}
