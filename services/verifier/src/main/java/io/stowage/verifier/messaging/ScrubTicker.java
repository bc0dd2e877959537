package io.stowage.verifier.messaging;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.stowage.events.ObjectVerified;
import io.stowage.messaging.ClusterLease;
import io.stowage.messaging.EventPublisher;
import io.stowage.verifier.VerifierSettings;
import io.stowage.verifier.app.ScrubRun;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the rolling scrub every {@code stowage.verifier.scrub.tick} (when {@code .enabled}) on a thread of its own
 * and publishes each result to {@code object.verified}, waiting for the broker's acknowledgement before the next
 * object is read. Of several verifier instances, only the one holding the cluster lease
 * ({@link ClusterLease}, group {@code stowage.kafka.lease.verifier}) runs a tick's scrub: the others would re-read the
 * same least-recently-read objects. A scrub run twice (the lease moving during a run) only re-reads objects again. {@link #runAt(Instant)} runs it once at a given instant (tests use it with a clock they control).
 */
@ApplicationScoped
public class ScrubTicker {
    private static final Logger LOG = Logger.getLogger(ScrubTicker.class);
    private final ScrubRun scrub;
    private final EventPublisher publisher;
    private final VerifierSettings.Scrub settings;
    private final Clock clock = Clock.systemUTC();
    private final Config config;
    private ScheduledExecutorService timer;
    private ClusterLease lease;

    ScrubTicker(ScrubRun scrub, EventPublisher publisher, VerifierSettings settings, Config config) {
        this.scrub = scrub;
        this.publisher = publisher;
        this.settings = settings.scrub();
        this.config = config;
    }

    void start(@Observes StartupEvent started) {
        if (!settings.enabled()) {
            LOG.info("scrub: not scheduled (stowage.verifier.scrub.enabled=false)");
            return;
        }
        long tick = settings.tick().toMillis();
        lease = ClusterLease.fromConfig("verifier", config).start();
        timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "stowage-scrub"));
        timer.scheduleWithFixedDelay(this::runNow, tick, tick, TimeUnit.MILLISECONDS);
        LOG.infof("scrub: every %s, %d bytes per hour, period %s", settings.tick(), settings.bytesPerHour(),
                settings.period());
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (lease != null) {
            lease.close();
        }
    }

    private void runNow() {
        if (!lease.held()) {
            LOG.debugf("scrub: another verifier instance holds the cluster lease; not run this tick");
            return;
        }
        try {
            runAt(clock.instant());
        } catch (RuntimeException e) {
            LOG.errorf(e, "scrub run failed; the next tick tries again");
        }
    }

    /**
     * One scrub run at {@code now}, each result published before the next object is read.
     *
     * @return the published results in read order
     * @throws RuntimeException when the broker does not acknowledge a result within 60 s ({@link EventPublisher#DEFAULT_TIMEOUT}) (the run stops there)
     */
    public List<ObjectVerified> runAt(Instant now) {
        return scrub.run(now, publisher::send);
    }
}
