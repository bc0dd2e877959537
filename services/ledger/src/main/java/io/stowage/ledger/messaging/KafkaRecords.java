package io.stowage.ledger.messaging;

import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.ledger.domain.KafkaPosition;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Reads the Kafka envelope of an incoming message and names the dead-letter topic of a nack. */
final class KafkaRecords {
    private KafkaRecords() {
    }

    /**
     * @return topic, partition, offset, key, timestamp and UTF-8 headers of the record behind {@code message}
     * @throws IllegalStateException when the message did not come from the Kafka connector
     */
    static KafkaPosition positionOf(Message<byte[]> message) {
        IncomingKafkaRecordMetadata<?, ?> kafka = message.getMetadata(IncomingKafkaRecordMetadata.class)
                .orElseThrow(() -> new IllegalStateException("not a Kafka record"));
        Map<String, String> headers = new HashMap<>();
        for (Header header : kafka.getHeaders()) {
            if (header.value() != null) {
                headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        Object key = kafka.getKey();
        return new KafkaPosition(kafka.getTopic(), kafka.getPartition(), kafka.getOffset(),
                key == null ? null : key.toString(), kafka.getTimestamp(), headers);
    }

    /** @return nack metadata that sends the record to {@code topic} instead of the channel's default dead-letter topic */
    static Metadata deadLetterTo(String topic) {
        return Metadata.of(OutgoingKafkaRecordMetadata.builder().withTopic(topic).build());
    }
}
