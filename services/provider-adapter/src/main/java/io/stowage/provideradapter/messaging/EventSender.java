package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.kafka.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Sends the provider-adapter's events to Kafka: value = the event's JSON, key = its asset id,
 * headers = its CloudEvents attributes with source {@code /stowage/provider-adapter}. Blocks until acked.
 */
@ApplicationScoped
public class EventSender {
    static final String SOURCE = "/stowage/provider-adapter";

    private final MutinyEmitter<byte[]> released;
    private final MutinyEmitter<byte[]> failed;

    EventSender(@Channel("volume-released") MutinyEmitter<byte[]> released,
                @Channel("volume-release-failed") MutinyEmitter<byte[]> failed) {
        this.released = released;
        this.failed = failed;
    }

    /** Sends {@code event} on its topic (volume.released or volume.release.failed) and waits for the ack. */
    public void send(StowageEvent event) {
        Message<byte[]> message = OutgoingEvents.message(event, SOURCE);
        switch (event.topic()) {
            case Topics.VOLUME_RELEASED -> released.sendMessageAndAwait(message);
            case Topics.VOLUME_RELEASE_FAILED -> failed.sendMessageAndAwait(message);
            default -> throw new IllegalArgumentException("the provider-adapter does not produce " + event.topic());
        }
    }
}
