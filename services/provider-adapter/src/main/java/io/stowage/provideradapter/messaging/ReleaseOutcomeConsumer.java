package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.GateDenied;
import io.stowage.events.Topics;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import io.stowage.provideradapter.domain.lifecycle.LifecycleResult;
import io.stowage.provideradapter.domain.lifecycle.VolumeLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.concurrent.CompletionStage;

/**
 * Consumes the outcomes of release requests (gate.denied, volume.released, volume.release.failed) in the
 * {@link IncomingEvents} shape and hands those that answer a volume's TTL, cap or operator release to the
 * {@link VolumeLifecycle}: destroy the volume after its directory was released, or alert with what blocks it; the
 * lifecycle's events are then published. Records about other directories are ignored (acked, nothing published). An
 * undecodable record goes to the channel's dead-letter topic with the reason; a failed publish or any other exception
 * is retried with backoff ({@code stowage.redelivery.*}), then dead-lettered with the reason.
 */
@ApplicationScoped
public class ReleaseOutcomeConsumer {
    private static final Logger LOG = Logger.getLogger(ReleaseOutcomeConsumer.class);

    private final VolumeLifecycle volumes;
    private final IncomingEvents incoming;
    private final Clock clock = Clock.systemUTC();

    ReleaseOutcomeConsumer(VolumeLifecycle volumes, IncomingEvents incoming) {
        this.volumes = volumes;
        this.incoming = incoming;
    }

    /** A gate.denied record (key = release asset id, value = its JSON); completes after its ack or nack. */
    @Incoming("gate-denied")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> denied(Message<byte[]> record) {
        return incoming.handle(record, Topics.GATE_DENIED, value -> EventCodec.decode(GateDenied.class, value),
                event -> apply(Topics.GATE_DENIED, volumes.onGateDenied(event, clock.instant())));
    }

    /** A volume.released record; completes after its ack or nack. */
    @Incoming("volume-released-outcome")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> released(Message<byte[]> record) {
        return incoming.handle(record, Topics.VOLUME_RELEASED, value -> EventCodec.decode(VolumeReleased.class, value),
                event -> apply(Topics.VOLUME_RELEASED, volumes.onVolumeReleased(event, clock.instant())));
    }

    /** A volume.release.failed record; completes after its ack or nack. */
    @Incoming("volume-release-failed-outcome")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> failed(Message<byte[]> record) {
        return incoming.handle(record, Topics.VOLUME_RELEASE_FAILED,
                value -> EventCodec.decode(VolumeReleaseFailed.class, value),
                event -> apply(Topics.VOLUME_RELEASE_FAILED, volumes.onReleaseFailed(event, clock.instant())));
    }

    private static Outcome apply(String topic, LifecycleResult<?> result) {
        if (result.value() != null) {
            LOG.infof("%s answers a volume release: %s", topic, result.value());
        }
        return Outcome.done(result.events());
    }
}
