package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.GateSignature;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.nio.charset.StandardCharsets;

/**
 * Sends the gate's events to Kafka: value = the event's JSON, key = its asset id, headers = its
 * CloudEvents attributes with source {@code /stowage/gatekeeper} plus {@link CloudEventHeaders#SIGNATURE},
 * the hex HMAC-SHA256 of the exact value bytes under the gate's signing key. Blocks until the broker acks.
 */
@ApplicationScoped
public class EventSender {
    static final String SOURCE = "/stowage/gatekeeper";

    private final MutinyEmitter<byte[]> passed;
    private final MutinyEmitter<byte[]> denied;
    private final GateSignature signature;

    EventSender(@Channel("gate-passed") MutinyEmitter<byte[]> passed,
                @Channel("gate-denied") MutinyEmitter<byte[]> denied, GateSignature signature) {
        this.passed = passed;
        this.denied = denied;
        this.signature = signature;
    }

    /** Sends {@code event}, signed, on its topic (gate.passed or gate.denied) and waits for the acknowledgement. */
    public void send(StowageEvent event) {
        Message<byte[]> message = signed(OutgoingEvents.message(event, SOURCE));
        switch (event.topic()) {
            case Topics.GATE_PASSED -> passed.sendMessageAndAwait(message);
            case Topics.GATE_DENIED -> denied.sendMessageAndAwait(message);
            default -> throw new IllegalArgumentException("the gatekeeper does not produce " + event.topic());
        }
    }

    private Message<byte[]> signed(Message<byte[]> message) {
        String mac = signature.sign(message.getPayload());
        OutgoingKafkaRecordMetadata<?> metadata = message.getMetadata(OutgoingKafkaRecordMetadata.class)
                .orElseThrow(() -> new IllegalStateException("OutgoingEvents built a message without Kafka metadata"));
        metadata.getHeaders().add(CloudEventHeaders.SIGNATURE, mac.getBytes(StandardCharsets.US_ASCII));
        return message;
    }
}
