package io.stowage.verifier.messaging;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.stowage.events.ObjectVerified;
import io.stowage.messaging.EventPublisher;
import io.stowage.verifier.VerifierSettings;
import io.stowage.verifier.app.ScrubRun;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
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
 * object is read. {@link #runAt(Instant)} runs it once at a given instant (tests use it with a clock they control).
 */
@ApplicationScoped
public class ScrubTicker {
    private static final Logger LOG = Logger.getLogger(ScrubTicker.class);
    private final ScrubRun scrub;
    private final EventPublisher publisher;
    private final VerifierSettings.Scrub settings;
    private final Clock clock = Clock.systemUTC();
    private ScheduledExecutorService timer;

    ScrubTicker(ScrubRun scrub, EventPublisher publisher, VerifierSettings settings) {
        this.scrub = scrub;
        this.publisher = publisher;
        this.settings = settings.scrub();
    }

    void start(@Observes StartupEvent started) {
        if (!settings.enabled()) {
            LOG.info("scrub: not scheduled (stowage.verifier.scrub.enabled=false)");
            return;
        }
        long tick = settings.tick().toMillis();
        timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "stowage-scrub"));
        timer.scheduleWithFixedDelay(this::runNow, tick, tick, TimeUnit.MILLISECONDS);
        LOG.infof("scrub: every %s, %d bytes per hour, period %s", settings.tick(), settings.bytesPerHour(),
                settings.period());
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void runNow() {
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
