package io.stowage.gatekeeper.messaging;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The gatekeeper's Prometheus meters ({@code /q/metrics}), counted for every decision it sends:
 * {@code stowage_gatekeeper_decisions_total{outcome,dry_run}} (outcome {@code passed} or {@code denied}) and, for a
 * denial, {@code stowage_gatekeeper_failed_conditions_total{condition,code}} once per failed condition (condition 1 to
 * 5, or 0 for a denial before the five were checked: a stale request, a ledger that is behind or failed; code as in
 * {@code FailedCondition}). Tags never carry a path or a file name.
 */
@ApplicationScoped
public class GateMetrics {
    private final MeterRegistry registry;

    GateMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one decision about to be sent; any other event is ignored. */
    public void record(StowageEvent decision) {
        if (decision instanceof GatePassed passed) {
            decisions("passed", passed.dryRun());
        } else if (decision instanceof GateDenied denied) {
            decisions("denied", denied.dryRun());
            for (FailedCondition f : denied.failed()) {
                Counter.builder("stowage.gatekeeper.failed.conditions").description("failed conditions of denied releases")
                        .tag("condition", Integer.toString(f.condition())).tag("code", String.valueOf(f.code()))
                        .register(registry).increment();
            }
        }
    }

    private void decisions(String outcome, boolean dryRun) {
        Counter.builder("stowage.gatekeeper.decisions").description("gate decisions sent, by outcome")
                .tag("outcome", outcome).tag("dry_run", Boolean.toString(dryRun)).register(registry).increment();
    }
}
