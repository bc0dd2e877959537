package io.stowage.ledger.it;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A plain Kafka producer that publishes events as the services do: asset id as key, CloudEvents headers. */
final class TestProducer implements AutoCloseable {
    private final KafkaProducer<String, byte[]> producer;

    TestProducer(String bootstrapServers) {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    }

    /** Publishes {@code event} on its topic and waits for the broker's acknowledgement. */
    void send(StowageEvent event) throws Exception {
        send(event.topic(), event.assetId(), EventCodec.encode(event), CloudEventHeaders.of(event, "/stowage/test"));
    }

    /** Publishes raw bytes with the given headers and waits for the acknowledgement. */
    void send(String topic, String key, byte[] value, Map<String, String> headers)
            throws InterruptedException, ExecutionException, TimeoutException {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
        headers.forEach((name, text) -> record.headers().add(name, text.getBytes(StandardCharsets.UTF_8)));
        producer.send(record).get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        producer.close();
    }
}
