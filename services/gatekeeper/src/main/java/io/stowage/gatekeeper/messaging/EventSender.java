package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.nio.charset.StandardCharsets;

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
        RecordHeaders headers = new RecordHeaders();
        CloudEventHeaders.of(event, SOURCE).forEach((name, value) ->
                headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
        Message<byte[]> message = Message.of(EventCodec.encode(event)).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withKey(event.assetId()).withHeaders(headers).build());
        switch (event.topic()) {
            case Topics.GATE_PASSED -> passed.sendMessageAndAwait(message);
            case Topics.GATE_DENIED -> denied.sendMessageAndAwait(message);
            default -> throw new IllegalArgumentException("the gatekeeper does not produce " + event.topic());
        }
    }

}
