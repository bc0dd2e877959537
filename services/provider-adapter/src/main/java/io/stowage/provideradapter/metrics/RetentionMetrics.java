package io.stowage.provideradapter.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stowage.provideradapter.domain.retention.RetentionExecutor;
import io.stowage.provideradapter.domain.retention.RetentionMeter;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The retention executor's meter on {@code /q/metrics}: {@code stowage_provider_adapter_retention_steps_total{outcome}},
 * outcome {@code expired} (a checkpoint step whose objects were deleted and confirmed gone by HEAD, one per
 * {@code checkpoint.expired}) or {@code refused} (one per refusal of a {@code retention.refused}: a step kept, or the
 * whole decision refused), counted once per decision decided (an outcome answered again adds nothing).
 */
@ApplicationScoped
public class RetentionMetrics implements RetentionMeter {
    private final MeterRegistry registry;

    RetentionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void decided(RetentionExecutor.Outcome outcome) {
        steps("expired").increment(outcome.expired().size());
        steps("refused").increment(outcome.refused().map(r -> r.refusals().size()).orElse(0));
    }

    private Counter steps(String outcome) {
        return Counter.builder("stowage.provider.adapter.retention.steps")
                .description("retention steps expired or refused by the executor").tag("outcome", outcome)
                .register(registry);
    }
}
