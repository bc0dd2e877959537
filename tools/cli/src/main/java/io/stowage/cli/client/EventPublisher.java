package io.stowage.cli.client;

import io.stowage.cli.CliException;
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
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes the CLI's events (checkpoint.published, volume.release.requested) to Kafka: key =
 * asset id, value = the event's JSON, CloudEvents headers with source {@code /stowage/cli};
 * idempotent producer, {@code acks=all}, each send awaited.
 */
public final class EventPublisher implements AutoCloseable {
    private static final String SOURCE = "/stowage/cli";
    private final KafkaProducer<String, byte[]> producer;

    public EventPublisher(String bootstrapServers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Sends one event and waits until the broker acknowledged it.
     *
     * @throws CliException when Kafka does not acknowledge within 30 s
     */
    public void publish(StowageEvent event) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(event.topic(), event.assetId(), EventCodec.encode(event));
        for (Map.Entry<String, String> header : CloudEventHeaders.of(event, SOURCE).entrySet()) {
            record.headers().add(header.getKey(), header.getValue().getBytes(StandardCharsets.UTF_8));
        }
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new CliException(CliException.FAILED, "Kafka did not accept " + event.topic() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(CliException.FAILED, "interrupted while publishing " + event.topic());
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
