package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.GateDenied;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import io.stowage.messaging.EventPublisher;
import io.stowage.provideradapter.domain.lifecycle.LifecycleResult;
import io.stowage.provideradapter.domain.lifecycle.VolumeLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.time.Clock;

/**
 * Consumes the outcomes of release requests (gate.denied, volume.released, volume.release.failed) and hands those
 * that answer a volume's TTL, cap or operator release to the {@link VolumeLifecycle}: destroy the volume after its
 * directory was released, or alert with what blocks it. Records about other directories are ignored. An
 * undecodable record throws and goes to the channel's dead-letter topic.
 */
@ApplicationScoped
public class ReleaseOutcomeConsumer {
    private static final Logger LOG = Logger.getLogger(ReleaseOutcomeConsumer.class);

    private final VolumeLifecycle volumes;
    private final EventPublisher sender;
    private final Clock clock = Clock.systemUTC();

    ReleaseOutcomeConsumer(VolumeLifecycle volumes, EventPublisher sender) {
        this.volumes = volumes;
        this.sender = sender;
    }

    /** @param record a gate.denied record (key = release asset id, value = its JSON) */
    @Incoming("gate-denied")
    @Blocking
    public void denied(ConsumerRecord<String, byte[]> record) {
        apply("gate.denied", volumes.onGateDenied(EventCodec.decode(GateDenied.class, record.value()), clock.instant()));
    }

    /** @param record a volume.released record */
    @Incoming("volume-released-outcome")
    @Blocking
    public void released(ConsumerRecord<String, byte[]> record) {
        apply("volume.released",
                volumes.onVolumeReleased(EventCodec.decode(VolumeReleased.class, record.value()), clock.instant()));
    }

    /** @param record a volume.release.failed record */
    @Incoming("volume-release-failed-outcome")
    @Blocking
    public void failed(ConsumerRecord<String, byte[]> record) {
        apply("volume.release.failed",
                volumes.onReleaseFailed(EventCodec.decode(VolumeReleaseFailed.class, record.value()), clock.instant()));
    }

    private void apply(String topic, LifecycleResult<?> result) {
        if (result.value() != null) {
            LOG.infof("%s answers a volume release: %s", topic, result.value());
        }
        sender.sendAll(result.events());
    }
}
