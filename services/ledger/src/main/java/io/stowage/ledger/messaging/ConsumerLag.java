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
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

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
 * topic and its dead-letter topic through a Kafka {@link Admin} client, and produces the {@link LedgerLag}; a topic the
 * broker does not have is reported as missing, never a failure of the whole answer.
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
     * @return the group's lag on every partition of every audit topic and dead-letter topic, naming the topics the
     *         broker lacks as {@code missing}; throws {@link IllegalStateException} when Kafka does not answer within
     *         10 s
     */
    public LedgerLag read() {
        List<String> topics = new ArrayList<>(Topics.ALL);
        Topics.ALL.forEach(t -> topics.add(Topics.dlq(t)));
        return read(topics);
    }

    /**
     * @param topics the topics to report, in the order of the answer
     * @return the group's lag on every partition of {@code topics}; a topic the broker does not have is named in
     *         {@code missing} instead of failing the whole answer; throws {@link IllegalStateException} when Kafka
     *         does not answer within 10 s
     */
    public LedgerLag read(List<String> topics) {
        try {
            Admin client = admin();
            Map<String, TopicDescription> described = new HashMap<>();
            List<String> missing = new ArrayList<>();
            for (var topic : client.describeTopics(topics).topicNameValues().entrySet()) {
                try {
                    described.put(topic.getKey(), topic.getValue().get(10, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw e;
                    }
                    missing.add(topic.getKey());
                }
            }
            missing.sort(Comparator.comparingInt(topics::indexOf));
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
            return LedgerLag.of(GROUP, lines, missing);
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
