package io.stowage.provideradapter;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.messaging.GateSettings;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.OutcomeDelivery;
import io.stowage.provideradapter.domain.ReleaseHandler;
import io.stowage.messaging.EventPublisher;
import io.stowage.provideradapter.domain.ReleaseJournal;
import io.stowage.provideradapter.metrics.ReleaseMetrics;
import io.stowage.provideradapter.persistence.FileReleaseJournal;
import io.stowage.provideradapter.release.LocalDiskProvider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Produces the framework-free release handler on the local-disk provider and its release journal from
 * configuration, and sends the journal's unsent outcomes once at start and every
 * {@code stowage.provider-adapter.outcome-retry-interval}.
 */
@ApplicationScoped
public class ReleaseBeans {
    private static final Logger LOG = Logger.getLogger(ReleaseBeans.class);
    private ScheduledExecutorService timer;

    /** @return the authenticator of gate decisions under {@code stowage.gate.signing-key} (refuses all without a valid key) */
    @Produces
    @ApplicationScoped
    DecisionAuthenticator decisionAuthenticator(GateSettings config) {
        return DecisionAuthenticator.of(config.signingKey());
    }

    /**
     * @return the handler deleting local directories under {@code stowage.provider-adapter.volume-roots}, never
     *         {@code stowage.gate.protected-roots} nor a home directory, with the UTC clock, joining a large
     *         decision's inventory from {@code gate.inventory}, counting each outcome on {@code /q/metrics}
     */
    @Produces
    @Singleton
    ReleaseHandler releaseHandler(GateSettings config, ProviderAdapterConfig state, DecisionAuthenticator authenticator,
                                  ReleaseJournal journal, io.stowage.provideradapter.messaging.GateInventoryReader parts,
                                  ReleaseMetrics metrics) {
        ReleaseTargetPolicy policy = ReleaseTargetPolicy.of(config.protectedRoots().orElse(List.of()),
                state.volumeRoots().orElse(List.of()), System.getProperty("user.home"));
        if (policy.volumeRoots().isEmpty()) {
            LOG.error("stowage.provider-adapter.volume-roots (env STOWAGE_PROVIDER_ADAPTER_VOLUME_ROOTS) is not set: "
                    + "every gate.passed will be refused as outside-volume-roots, nothing deleted");
        }
        return new ReleaseHandler(new LocalDiskProvider(policy), authenticator, journal, Clock.systemUTC(), parts,
                metrics);
    }

    /** @return the sender of outcomes that marks each acknowledged one in the journal */
    @Produces
    @Singleton
    OutcomeDelivery outcomeDelivery(ReleaseHandler handler, EventPublisher sender) {
        return new OutcomeDelivery(handler, sender::send);
    }

    /**
     * @return the release journal in {@code <stowage.provider-adapter.state-dir>/releases}
     * @throws IllegalStateException when the state directory is not set
     * @throws UncheckedIOException  when it cannot be opened: the service does not start rather than act twice
     */
    @Produces
    @Singleton
    ReleaseJournal releaseJournal(ProviderAdapterConfig state) {
        Path dir = ProviderAdapterConfig.requiredStateDir(state);
        try {
            FileReleaseJournal journal = FileReleaseJournal.open(dir);
            LOG.infof("release journal %s holds %d request(s)", dir.resolve(FileReleaseJournal.DIR_NAME), journal.size());
            return journal;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the release journal in stowage.provider-adapter.state-dir "
                    + dir, e);
        }
    }

    /**
     * Refuses to start without a state directory, warns (without the key) when every gate decision will be refused
     * for want of a valid key, then finishes interrupted releases and sends unsent outcomes on a timer thread.
     */
    void start(@Observes StartupEvent start, ProviderAdapterConfig state, DecisionAuthenticator authenticator,
               OutcomeDelivery delivery) {
        try {
            ProviderAdapterConfig.requiredStateDir(state);
        } catch (IllegalStateException e) {
            LOG.error(e.getMessage());
            throw e;
        }
        authenticator.keyProblem().ifPresent(problem -> LOG.errorf(
                "%s (env STOWAGE_GATE_SIGNING_KEY): every gate.passed will be refused, nothing deleted", problem));
        long millis = state.outcomeRetryInterval().toMillis();
        timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "release-outcome-retry"));
        Runnable retry = () -> {
            try {
                int sent = delivery.retry();
                if (sent > 0) {
                    LOG.infof("sent %d release outcome(s) from the release journal", sent);
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "release journal recovery failed; retried at the next interval");
            }
        };
        if (millis > 0) {
            timer.scheduleWithFixedDelay(retry, 0, millis, TimeUnit.MILLISECONDS);
        } else {
            timer.execute(retry);
        }
    }

    void stop(@Observes ShutdownEvent stop) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
