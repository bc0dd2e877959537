package io.stowage.messaging;

import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.nio.charset.StandardCharsets;

/**
 * Turns a {@link StowageEvent} into the Kafka message every service produces: value = the event's
 * JSON ({@link EventCodec#encode}), key = its asset id, headers = its CloudEvents attributes
 * ({@link CloudEventHeaders#of}) as UTF-8 bytes. The channel (and so the topic) is the caller's choice.
 */
public final class OutgoingEvents {
    private OutgoingEvents() {
    }

    /**
     * @param event  the event to send; its asset id becomes the record key
     * @param source the producing service's CloudEvents source, e.g. {@code /stowage/uploader}
     * @return a message with the JSON bytes as payload and {@link OutgoingKafkaRecordMetadata} carrying key and headers
     * @throws io.stowage.events.InvalidEventException when the event does not validate
     */
    public static Message<byte[]> message(StowageEvent event, String source) {
        return build(event, source, null);
    }

    /**
     * Like {@link #message}, with the record's topic set to the event's own ({@link StowageEvent#topic}), so one
     * channel may carry events of several topics.
     */
    public static Message<byte[]> routed(StowageEvent event, String source) {
        return build(event, source, event.topic());
    }

    private static Message<byte[]> build(StowageEvent event, String source, String topic) {
        RecordHeaders headers = new RecordHeaders();
        CloudEventHeaders.of(event, source).forEach((name, value) ->
                headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(topic)
                .withKey(event.assetId())
                .withHeaders(headers)
                .build();
        return Message.of(EventCodec.encode(event)).addMetadata(metadata);
    }
}
