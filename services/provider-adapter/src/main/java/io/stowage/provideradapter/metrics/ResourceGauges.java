package io.stowage.provideradapter.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.provideradapter.domain.cost.CostReport;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.List;

/**
 * The provider-adapter's gauges on {@code /q/metrics}, read from the {@link ResourceStore} when scraped and kept for
 * {@link #FRESH_NANOS}: {@code stowage_provider_adapter_volumes{state}} (managed volumes by state: {@code ACTIVE},
 * {@code RELEASING}, {@code BLOCKED}, {@code DESTROYED}), {@code stowage_provider_adapter_pods{state}} ({@code running}
 * or {@code terminated}) and {@code stowage_provider_adapter_cost_usd} (what every managed volume and pod cost from
 * its creation to its end or to now, US dollars: {@code GET /api/cost}'s {@code totalCostUsd}). NaN when the state
 * directory cannot be read.
 */
@ApplicationScoped
public class ResourceGauges {
    /** How long one reading of the state directory is reused: 5 seconds. */
    static final long FRESH_NANOS = 5_000_000_000L;
    private static final Logger LOG = Logger.getLogger(ResourceGauges.class);

    private final ResourceStore store;
    private final CostCalculator costs;
    private List<ManagedVolume> volumes;
    private List<ManagedPod> pods;
    private long readAt;

    ResourceGauges(ResourceStore store, CostCalculator costs) {
        this.store = store;
        this.costs = costs;
    }

    void register(@Observes StartupEvent start, MeterRegistry registry) {
        // a registry that outlives one start of the application (tests restart Quarkus in one JVM) may still hold the
        // gauges of an earlier instance, which a new registration would be given back and which read NaN once that
        // instance is gone: remove them first, so the gauges read this instance
        for (String name : java.util.List.of("stowage.provider.adapter.volumes", "stowage.provider.adapter.pods",
                "stowage.provider.adapter.cost")) {
            registry.find(name).meters().forEach(registry::remove);
        }
        for (ManagedVolume.State state : ManagedVolume.State.values()) {
            Gauge.builder("stowage.provider.adapter.volumes", this, g -> g.volumes(state))
                    .description("managed volumes, by state").tag("state", state.name()).register(registry);
        }
        for (boolean running : new boolean[] {true, false}) {
            Gauge.builder("stowage.provider.adapter.pods", this, g -> g.pods(running))
                    .description("managed pods, by state").tag("state", running ? "running" : "terminated")
                    .register(registry);
        }
        Gauge.builder("stowage.provider.adapter.cost", this, ResourceGauges::costUsd).baseUnit("usd")
                .description("cost so far of every managed volume and pod, US dollars").register(registry);
    }

    synchronized double volumes(ManagedVolume.State state) {
        return fresh() ? volumes.stream().filter(v -> v.state() == state).count() : Double.NaN;
    }

    synchronized double pods(boolean running) {
        return fresh() ? pods.stream().filter(p -> p.running() == running).count() : Double.NaN;
    }

    synchronized double costUsd() {
        return fresh() ? CostReport.of(volumes, pods, 0, Clock.systemUTC().instant(), costs).totalCostUsd().doubleValue()
                : Double.NaN;
    }

    private boolean fresh() {
        long now = System.nanoTime();
        if (readAt == 0 || now - readAt > FRESH_NANOS) {
            readAt = now;
            try {
                volumes = store.volumes();
                pods = store.pods();
            } catch (RuntimeException e) {
                LOG.warnf("cannot read the managed volumes and pods for /q/metrics: %s", e.getMessage());
                volumes = null;
                pods = null;
            }
        }
        return volumes != null && pods != null;
    }
}
