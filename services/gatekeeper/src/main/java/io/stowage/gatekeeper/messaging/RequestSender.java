package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Sends the events of the gatekeeper's HTTP API, unsigned (they are requests, not gate decisions):
 * {@code volume.release.requested} (waits for the broker's acknowledgement) and {@code release.refused}
 * (fire and forget, since it is sent from the HTTP event loop).
 */
@ApplicationScoped
public class RequestSender {
    private final MutinyEmitter<byte[]> requested;
    private final MutinyEmitter<byte[]> refused;

    RequestSender(@Channel("release-requested-out") MutinyEmitter<byte[]> requested,
                  @Channel("release-refused") MutinyEmitter<byte[]> refused) {
        this.requested = requested;
        this.refused = refused;
    }

    /** Sends a {@code volume.release.requested} and blocks until Kafka acknowledges it; call on a worker thread. */
    public void sendAndAwait(StowageEvent event) {
        require(event, Topics.VOLUME_RELEASE_REQUESTED);
        requested.sendMessageAndAwait(OutgoingEvents.message(event, EventSender.SOURCE));
    }

    /** Sends a {@code release.refused} without waiting (safe on the event loop); a send failure is logged by the connector. */
    public void sendAndForget(StowageEvent event) {
        require(event, Topics.RELEASE_REFUSED);
        refused.sendMessageAndForget(OutgoingEvents.message(event, EventSender.SOURCE));
    }

    private static void require(StowageEvent event, String topic) {
        if (!event.topic().equals(topic)) {
            throw new IllegalArgumentException("expected " + topic + ", got " + event.topic());
        }
    }
}
