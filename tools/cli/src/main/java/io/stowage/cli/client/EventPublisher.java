package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes the CLI's events ({@link #TOPICS}: checkpoint.published, archive.published, model.published,
 * model.shared, run.started, run.progress, run.finished) to Kafka: key =
 * asset id, value = the event's JSON, CloudEvents headers with source {@code /stowage/cli};
 * idempotent producer, {@code acks=all}, each send awaited. A release is never published here: the gatekeeper's
 * {@code POST /api/releases} sends the request.
 */
public final class EventPublisher implements AutoCloseable {
    /** The only topics the CLI writes; the Kafka ACL table grants the CLI's user ({@code operator}) exactly these. */
    public static final Set<String> TOPICS = Set.of(Topics.CHECKPOINT_PUBLISHED, Topics.ARCHIVE_PUBLISHED,
            Topics.MODEL_PUBLISHED, Topics.MODEL_SHARED,
            Topics.RUN_STARTED, Topics.RUN_PROGRESS, Topics.RUN_FINISHED);
    private static final String SOURCE = "/stowage/cli";
    private final KafkaProducer<String, byte[]> producer;

    /** @param bootstrapServers a broker without authentication (the tests' shared PLAINTEXT stack) */
    public EventPublisher(String bootstrapServers) {
        this(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /**
     * @param client the client settings: bootstrap servers and, for a SCRAM broker, {@code security.protocol},
     *               {@code sasl.mechanism}, {@code sasl.jaas.config} (e.g. {@code Session.kafkaClient()})
     */
    public EventPublisher(Map<String, String> client) {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Asks the broker for the metadata of {@code checkpoint.published} with this publisher's login, sending nothing.
     *
     * @throws CliException when the broker does not answer within 15 s or refuses the login
     */
    public void checkBroker() {
        try {
            producer.partitionsFor(Topics.CHECKPOINT_PUBLISHED);
        } catch (RuntimeException e) {
            throw new CliException(CliException.FAILED, "Kafka did not answer: " + e.getMessage(), e);
        }
    }

    /**
     * Sends one event and waits until the broker acknowledged it.
     *
     * @throws CliException when Kafka does not acknowledge within 30 s, or refuses the record (e.g. not authorized)
     * @throws IllegalArgumentException for an event whose topic is not one of {@link #TOPICS}
     */
    public void publish(StowageEvent event) {
        if (!TOPICS.contains(event.topic())) {
            throw new IllegalArgumentException("the stowage CLI does not publish " + event.topic());
        }
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
