package io.stowage.provideradapter.retention;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.stowage.auth.ClientToken;
import io.stowage.events.GateSignature;
import io.stowage.messaging.EventPublisher;
import io.stowage.messaging.GateSettings;
import io.stowage.provideradapter.ProviderAdapterConfig;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.retention.RetentionDecider;
import io.stowage.provideradapter.domain.retention.RetentionDelivery;
import io.stowage.provideradapter.domain.retention.RetentionExecutor;
import io.stowage.provideradapter.domain.retention.RetentionSchedules;
import io.stowage.provideradapter.domain.retention.RetentionSweep;
import io.stowage.provideradapter.metrics.RetentionMetrics;
import io.stowage.provideradapter.persistence.FileRetentionJournal;
import io.stowage.provideradapter.persistence.FileRetentionSchedules;
import io.stowage.provideradapter.storage.S3RetentionSources;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Produces {@link Retention}: the retention decider and executor on the ledger ({@code stowage.ledger.url}, client
 * token {@code stowage.auth.client-token}), the stores ({@code stowage.store.primary.*}, {@code stowage.store.replica.*},
 * as the uploader and verifier read them; required), the gate's signing key ({@code stowage.gate.signing-key}) and
 * the retention journal in {@code <stowage.provider-adapter.state-dir>/retention}. Without a valid key or a journal,
 * retention is off: every call answers why, and nothing is deleted. At start and every
 * {@code stowage.provider-adapter.outcome-retry-interval} it finishes decisions a crash interrupted (each checked again)
 * and sends the journal's unsent outcomes. The runs' standing policies live in
 * {@code <state-dir>/retention-schedules}; every {@code stowage.provider-adapter.retention-sweep-interval} (0: never on
 * a timer) the {@link RetentionSweep} applies them.
 */
@ApplicationScoped
public class RetentionBeans {
    private static final Logger LOG = Logger.getLogger(RetentionBeans.class);
    private S3RetentionSources sources;
    private ScheduledExecutorService timer;

    @Produces
    @Singleton
    Retention retention(Config config, StoreSettings settings, GateSettings gate, DecisionAuthenticator authenticator,
                        ClientToken token, ProviderAdapterConfig state, EventPublisher sender, RetentionMetrics metrics) {
        GateSignature signature;
        try {
            signature = new GateSignature(gate.signingKey().orElse(null));
        } catch (IllegalArgumentException e) {
            return Retention.off("stowage.gate.signing-key is not set to a valid key (" + e.getMessage() + ")");
        }
        FileRetentionJournal journal;
        try {
            Path dir = ProviderAdapterConfig.requiredStateDir(state);
            journal = FileRetentionJournal.open(dir);
            LOG.infof("retention journal %s holds %d decision(s), %d unreadable file(s)",
                    dir.resolve(FileRetentionJournal.DIR_NAME), journal.size(), journal.unreadable().size());
        } catch (IOException | IllegalStateException e) {
            return Retention.off("the retention journal cannot be opened (" + e.getMessage() + ")");
        }
        Map<String, StoreConfig> stores = new LinkedHashMap<>();
        stores.put("primary", StoreSettings.config("primary", settings.primary()));
        stores.put("replica", StoreSettings.config("replica", settings.replica()));
        URI ledger = URI.create(config.getOptionalValue("stowage.ledger.url", String.class).orElse("http://127.0.0.1:8086"));
        sources = new S3RetentionSources(ledger, token.authorizationHeader(), stores);
        Clock clock = Clock.systemUTC();
        RetentionExecutor executor = new RetentionExecutor(sources, authenticator, journal, clock, metrics);
        RetentionDecider decider = new RetentionDecider(sources, signature, clock);
        RetentionDelivery delivery = new RetentionDelivery(executor, events -> sender.sendAll(events));
        FileRetentionSchedules schedules;
        try {
            schedules = FileRetentionSchedules.open(ProviderAdapterConfig.requiredStateDir(state));
            LOG.infof("retention schedules: %d run(s), %d unreadable file(s) %s", schedules.all().size(),
                    schedules.unreadable().size(), schedules.unreadable());
        } catch (IOException e) {
            // apply still works; no run is swept
            LOG.errorf("the retention schedules cannot be opened (%s): no run is swept", e.getMessage());
            return Retention.on(decider, delivery, null, null);
        }
        return Retention.on(decider, delivery, schedules,
                new RetentionSweep(schedules, sources, decider, delivery, sender::send, clock));
    }

    /** Finishes interrupted decisions and sends unsent outcomes on a timer thread (when retention is on). */
    void start(@Observes StartupEvent start, Retention retention, ProviderAdapterConfig state) {
        if (retention.offBecause() != null) {
            LOG.warnf("retention is off: %s", retention.offBecause());
            return;
        }
        long millis = state.outcomeRetryInterval().toMillis();
        timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "retention-outcome-retry"));
        Runnable retry = () -> {
            try {
                int sent = retention.delivery().retry();
                if (sent > 0) {
                    LOG.infof("sent %d retention outcome(s) from the retention journal", sent);
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "retention journal recovery failed; retried at the next interval");
            }
        };
        if (millis > 0) {
            timer.scheduleWithFixedDelay(retry, 0, millis, TimeUnit.MILLISECONDS);
        } else {
            timer.execute(retry);
        }
        long sweepMillis = state.retentionSweepInterval().toMillis();
        if (retention.sweep() != null && sweepMillis > 0) {
            timer.scheduleWithFixedDelay(() -> {
                try {
                    for (RetentionSweep.RunPass pass : retention.sweep().pass()) {
                        LOG.infof("retention sweep %s/%s: %s (%d stored, cap %d, expire %s, expired %s) %s",
                                pass.experiment(), pass.run(), pass.result(), pass.storedSteps(), pass.cap(),
                                pass.wouldExpire(), pass.expired(), pass.detail());
                    }
                } catch (RuntimeException e) {
                    LOG.errorf(e, "retention sweep failed; tried again at the next interval");
                }
            }, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
        }
    }

    void close(@Observes ShutdownEvent stop) {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (sources != null) {
            sources.close();
        }
    }

    /**
     * The decider and the executor (through its delivery, which sends each outcome), the runs' schedules and their
     * sweep (both null when the schedules cannot be opened), or why retention is off.
     */
    public record Retention(RetentionDecider decider, RetentionDelivery delivery, RetentionSchedules schedules,
                            RetentionSweep sweep, String offBecause) {
        static Retention on(RetentionDecider decider, RetentionDelivery delivery, RetentionSchedules schedules,
                            RetentionSweep sweep) {
            return new Retention(decider, delivery, schedules, sweep, null);
        }

        static Retention off(String why) {
            return new Retention(null, null, null, null, why);
        }
    }
}
