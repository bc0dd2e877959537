package io.stowage.ledger.messaging;

import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads every partition of every topic of {@link Topics#ALL} from its first offset up to the end offset it had
 * when the read began (the snapshot), without a consumer group (nothing is committed, the ledger's own group is
 * untouched), and hands each decodable event to a callback in partition order. Records that do not decode are
 * counted, not handed on: the live ledger dead-letters them and projects nothing from them.
 */
public final class TopicSnapshot {
    private final KafkaClientSettings settings;

    /** @param settings the broker and login ({@code kafka.bootstrap.servers}, and the SASL settings when set) */
    public TopicSnapshot(KafkaClientSettings settings) {
        this.settings = settings;
    }

    /**
     * What one read saw.
     *
     * @param ends       end offset of each partition at the start of the read (exclusive: the next offset)
     * @param records    records read
     * @param undecodable records that did not decode
     */
    public record Read(Map<TopicPartition, Long> ends, long records, long undecodable) {
    }

    /**
     * @param sink receives each decoded event, in offset order within a partition
     * @return the snapshot's end offsets and counts; throws {@link org.apache.kafka.common.KafkaException} when
     *         the broker cannot be read
     */
    public Read read(Consumer<StowageEvent> sink) {
        Map<String, Object> config = settings.with(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000,
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : Topics.ALL) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                    partitions.add(new TopicPartition(topic, p.partition()));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
            Map<TopicPartition, Long> remaining = new HashMap<>();
            ends.forEach((tp, end) -> {
                if (end > consumer.position(tp, Duration.ofSeconds(30))) {
                    remaining.put(tp, end);
                }
            });
            consumer.pause(partitions.stream().filter(tp -> !remaining.containsKey(tp)).toList());
            long records = 0;
            long undecodable = 0;
            while (!remaining.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    Long end = remaining.get(tp);
                    if (end == null || record.offset() >= end) {
                        continue;
                    }
                    records++;
                    try {
                        sink.accept(EventCodec.decode(record.topic(), record.value()));
                    } catch (InvalidEventException e) {
                        undecodable++;
                    }
                    if (record.offset() + 1 >= end) {
                        remaining.remove(tp);
                        consumer.pause(List.of(tp));
                    }
                }
            }
            return new Read(Map.copyOf(ends), records, undecodable);
        }
    }
}
