package io.stowage.provideradapter;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.provideradapter.domain.cost.PriceTable;
import io.stowage.provideradapter.domain.resource.CapRule;
import io.stowage.provideradapter.domain.resource.ComputeProvider;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.resource.RetryPolicy;
import io.stowage.provideradapter.domain.lifecycle.CapSweep;
import io.stowage.provideradapter.domain.lifecycle.PodLifecycle;
import io.stowage.provideradapter.domain.lifecycle.VolumeLifecycle;
import io.stowage.provideradapter.compute.LocalComputeProvider;
import io.stowage.messaging.EventPublisher;
import io.stowage.provideradapter.persistence.FileResourceStore;
import io.stowage.provideradapter.compute.RunPodProvider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Produces the provider, the resource store, the cost calculator and the volume/pod lifecycles from configuration, and runs the cap sweep on a timer. */
@ApplicationScoped
public class ResourceBeans {
    private static final Logger LOG = Logger.getLogger(ResourceBeans.class);
    private ScheduledExecutorService timer;

    /** @return the calculator on {@code stowage.provider-adapter.prices.*} */
    @Produces
    @Singleton
    CostCalculator costCalculator(ProviderAdapterConfig config) {
        ProviderAdapterConfig.Prices p = config.prices();
        return new CostCalculator(new PriceTable(p.volumeUsdPerGbMonth(), p.storeUsdPerGbMonth(), p.storeFreeGbMonths(),
                p.hoursPerMonth()));
    }

    /**
     * @return the provider named by {@code stowage.provider-adapter.provider}
     * @throws IllegalStateException for an unknown name or an unreadable RunPod key file (named, never shown)
     */
    @Produces
    @Singleton
    ComputeProvider computeProvider(ProviderAdapterConfig config) {
        switch (config.provider()) {
            case "local":
                return new LocalComputeProvider(config.volumesRoot());
            case "runpod":
                ProviderAdapterConfig.RunPod r = config.runpod();
                try {
                    return new RunPodProvider(r.baseUrl(), r.apiKeyFile(), r.dataCenterId(), r.mountRoot(),
                            new RetryPolicy(r.maxAttempts(), r.backoff(), r.maxBackoff(), r.maxRetryAfter()),
                            Clock.systemUTC());
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read the RunPod API key file "
                            + r.apiKeyFile() + " (stowage.provider-adapter.runpod.api-key-file)", e);
                }
            default:
                throw new IllegalStateException("stowage.provider-adapter.provider must be local or runpod, not "
                        + config.provider());
        }
    }

    /** @return the volume and pod records in {@code stowage.provider-adapter.state-dir} */
    @Produces
    @Singleton
    ResourceStore resourceStore(ProviderAdapterConfig state) {
        try {
            return new FileResourceStore(ProviderAdapterConfig.requiredStateDir(state));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the resource records in " + state.stateDir().orElseThrow(), e);
        }
    }

    @Produces
    @Singleton
    VolumeLifecycle volumeLifecycle(ComputeProvider provider, ResourceStore store, CostCalculator costs) {
        return new VolumeLifecycle(provider, store, costs, "provider-adapter");
    }

    @Produces
    @Singleton
    PodLifecycle podLifecycle(ComputeProvider provider, ResourceStore store, CostCalculator costs) {
        return new PodLifecycle(provider, store, costs);
    }

    @Produces
    @Singleton
    CapSweep capSweep(ResourceStore store, CostCalculator costs, VolumeLifecycle volumes, PodLifecycle pods,
                      ProviderAdapterConfig config) {
        return new CapSweep(store, new CapRule(costs), volumes, pods, config.runCheckpointGrace());
    }

    /** Starts the sweep every {@code stowage.provider-adapter.sweep-interval} on the system clock. */
    void start(@Observes StartupEvent start, ProviderAdapterConfig config, CapSweep sweep, EventPublisher sender) {
        long millis = config.sweepInterval().toMillis();
        LOG.infof("provider %s; sweeping volumes and pods every %d ms", config.provider(), millis);
        if (millis <= 0) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "cap-sweep"));
        timer.scheduleWithFixedDelay(() -> {
            try {
                sender.sendAll(sweep.run(Clock.systemUTC().instant()).events());
            } catch (RuntimeException e) {
                LOG.errorf(e, "cap sweep failed; retried at the next interval");
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent stop) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
