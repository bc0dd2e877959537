package io.stowage.stack;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A plain Kafka client of the real broker for tests, as another service or an operator would use
 * it: sends raw records (String key, byte[] value, UTF-8 headers) and reads whole topics from the
 * beginning, outside any consumer group. Every wait is bounded (60 s for records unless told otherwise, 30 s to reach
 * the end of a topic) and fails with an {@link AssertionError} naming what was missing.
 */
public final class KafkaProbe {
    private static final Duration END_WAIT = Duration.ofSeconds(30);
    private final Map<String, Object> client;
    private final Duration recordWait;

    /** @param bootstrap the broker's bootstrap servers, e.g. {@link StackEndpoints#kafkaBootstrapServers()} */
    public KafkaProbe(String bootstrap) {
        this(bootstrap, Duration.ofSeconds(60));
    }

    /** @param recordWait how long {@link #await} and {@link #send} wait before failing */
    public KafkaProbe(String bootstrap, Duration recordWait) {
        this(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), recordWait);
    }

    /**
     * @param client     client settings: bootstrap servers and, for a SCRAM broker, the login (e.g.
     *                   {@link KafkaSecurity#client(String, String)})
     * @param recordWait how long {@link #await} and {@link #send} wait before failing
     */
    public KafkaProbe(Map<String, ?> client, Duration recordWait) {
        this.client = Map.copyOf(client);
        this.recordWait = recordWait;
    }

    private Map<String, Object> with(Object... pairs) {
        Map<String, Object> config = new java.util.HashMap<>(client);
        for (int i = 0; i < pairs.length; i += 2) {
            config.put((String) pairs[i], pairs[i + 1]);
        }
        return config;
    }

    /** Sends one record without headers and waits for the broker's acknowledgement (acks=all). */
    public void send(String topic, String key, byte[] value) {
        send(topic, key, value, Map.of());
    }

    /**
     * Sends one record with the given headers (values encoded as UTF-8) and waits for the acknowledgement.
     *
     * @throws AssertionError when the broker does not acknowledge within 60 s
     */
    public void send(String topic, String key, byte[] value, Map<String, String> headers) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(with(
                ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
            headers.forEach((name, v) -> record.headers().add(name, v.getBytes(StandardCharsets.UTF_8)));
            producer.send(record).get(recordWait.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("the broker did not acknowledge a record on " + topic + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while sending to " + topic, e);
        }
    }

    /** @return the first record on {@code topic} whose key is {@code key}, waiting up to 60 s */
    public ConsumerRecord<String, byte[]> await(String topic, String key) {
        return await(topic, r -> key.equals(r.key()), 1).get(0);
    }

    /**
     * Reads {@code topic} from the beginning until {@code count} records match.
     *
     * @return the first {@code count} matching records, in the order read
     * @throws AssertionError when fewer match within 60 s
     */
    public List<ConsumerRecord<String, byte[]>> await(String topic, Predicate<ConsumerRecord<String, byte[]>> match,
                                                      int count) {
        List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = assignedFromStart(topic)) {
            Instant deadline = Instant.now().plus(recordWait);
            while (found.size() < count) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("only " + found.size() + " of " + count + " expected records arrived on "
                            + topic + " within " + recordWait.toSeconds() + " s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (match.test(r)) {
                        found.add(r);
                    }
                });
            }
        }
        return List.copyOf(found.subList(0, count));
    }

    /**
     * @return the keys of every record on {@code topic} up to its end offsets at the time of the call
     * @throws AssertionError when the end is not reached within 30 s
     */
    public List<String> keysUpToEnd(String topic) {
        return recordsUpToEnd(topic).stream().map(ConsumerRecord::key).toList();
    }

    /**
     * @return every record on {@code topic} up to its end offsets at the time of the call, in the order read
     * @throws AssertionError when the end is not reached within 30 s
     */
    public List<ConsumerRecord<String, byte[]>> recordsUpToEnd(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = assignedFromStart(topic)) {
            List<TopicPartition> partitions = List.copyOf(consumer.assignment());
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, byte[]>> keys = new ArrayList<>();
            Instant deadline = Instant.now().plus(END_WAIT);
            while (!partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("did not reach the end of " + topic + " within " + END_WAIT.toSeconds() + " s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(keys::add);
            }
            return keys;
        }
    }

    /** @return the UTF-8 value of the last header {@code name} of {@code record}, or null when absent */
    public static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private KafkaConsumer<String, byte[]> assignedFromStart(String topic) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(with(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }
}
