package io.stowage.ledger.messaging;

import io.stowage.events.Topics;
import io.stowage.ledger.domain.LedgerLag;
import io.stowage.ledger.domain.PartitionLag;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the ledger consumer group's committed offsets and the end offsets of every partition of every audit
 * topic and its dead-letter topic through a Kafka {@link Admin} client, and produces the {@link LedgerLag}.
 * Blocking (up to about 10 s per call): call it from a worker thread.
 */
@ApplicationScoped
public class ConsumerLag {
    /** The consumer group of both ledger channels. */
    public static final String GROUP = "stowage-ledger";

    private final KafkaClientSettings settings;
    private Admin admin;

    public ConsumerLag(KafkaClientSettings settings) {
        this.settings = settings;
    }

    /**
     * @return the group's lag on every partition; throws {@link IllegalStateException} when Kafka does not answer
     *         within 10 s
     */
    public LedgerLag read() {
        try {
            Admin client = admin();
            List<String> topics = new ArrayList<>(Topics.ALL);
            Topics.ALL.forEach(t -> topics.add(Topics.dlq(t)));
            Map<String, TopicDescription> described = client.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            described.values().forEach(d -> d.partitions().forEach(p ->
                    request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
            var ends = client.listOffsets(request).all().get(10, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            List<PartitionLag> lines = new ArrayList<>();
            for (TopicPartition tp : request.keySet()) {
                OffsetAndMetadata at = committed.get(tp);
                lines.add(PartitionLag.of(tp.topic(), tp.partition(), at == null ? 0 : at.offset(), ends.get(tp).offset()));
            }
            lines.sort(Comparator.comparingInt((PartitionLag l) -> topics.indexOf(l.topic())).thenComparingInt(PartitionLag::partition));
            return LedgerLag.of(GROUP, lines);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the offsets of consumer group " + GROUP + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading consumer group offsets", e);
        }
    }

    /**
     * @param ends end offsets of a snapshot (e.g. {@link TopicSnapshot.Read#ends()})
     * @return true when the group's committed offset is at or beyond each of them; throws
     *         {@link IllegalStateException} when Kafka does not answer within 10 s
     */
    public boolean reached(Map<TopicPartition, Long> ends) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin().listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            return ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                    || committed.get(e.getKey()) != null && committed.get(e.getKey()).offset() >= e.getValue());
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the offsets of consumer group " + GROUP + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading consumer group offsets", e);
        }
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(settings.with(Map.of(
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000)));
        }
        return admin;
    }

    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
