package io.stowage.provideradapter.messaging;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** Test client of the real broker: sends raw records and waits for the record with a given key on a topic. */
final class KafkaProbe {
    private final String bootstrap;

    KafkaProbe(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    void send(String topic, String key, byte[] value, Map<String, String> headers) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
            headers.forEach((name, v) -> record.headers().add(name, v.getBytes(StandardCharsets.UTF_8)));
            producer.send(record).get();
        }
    }

    /** Reads {@code topic} from the beginning until a record keyed {@code key} arrives (at most 60 s). */
    ConsumerRecord<String, byte[]> await(String topic, String key) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map((PartitionInfo p) -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            AtomicReference<ConsumerRecord<String, byte[]>> found = new AtomicReference<>();
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(r.key())) {
                        found.set(r);
                    }
                }
                return found.get() != null;
            });
            return found.get();
        }
    }

    /** @return the keys of every record on {@code topic} up to its current end offsets */
    List<String> keysUpToEnd(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map((PartitionInfo p) -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<String> keys = new java.util.ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> keys.add(r.key()));
                return partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
            });
            return keys;
        }
    }

    static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
