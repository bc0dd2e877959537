package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.kafka.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Sends the gate's events to Kafka: value = the event's JSON, key = its asset id, headers = its
 * CloudEvents attributes with source {@code /stowage/gatekeeper}. Blocks until the broker acks.
 */
@ApplicationScoped
public class EventSender {
    static final String SOURCE = "/stowage/gatekeeper";

    private final MutinyEmitter<byte[]> passed;
    private final MutinyEmitter<byte[]> denied;

    EventSender(@Channel("gate-passed") MutinyEmitter<byte[]> passed,
                @Channel("gate-denied") MutinyEmitter<byte[]> denied) {
        this.passed = passed;
        this.denied = denied;
    }

    /** Sends {@code event} on its topic (gate.passed or gate.denied) and waits for the acknowledgement. */
    public void send(StowageEvent event) {
        Message<byte[]> message = OutgoingEvents.message(event, SOURCE);
        switch (event.topic()) {
            case Topics.GATE_PASSED -> passed.sendMessageAndAwait(message);
            case Topics.GATE_DENIED -> denied.sendMessageAndAwait(message);
            default -> throw new IllegalArgumentException("the gatekeeper does not produce " + event.topic());
        }
    }

}
