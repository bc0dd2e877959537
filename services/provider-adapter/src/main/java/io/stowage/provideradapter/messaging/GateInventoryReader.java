package io.stowage.provideradapter.messaging;

import io.stowage.events.EventCodec;
import io.stowage.events.GateInventory;
import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;
import io.stowage.events.InvalidEventException;
import io.stowage.events.Topics;
import io.stowage.provideradapter.domain.InventoryParts;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the {@code gate.inventory} parts of one decision with a Kafka consumer of its own, without a consumer group:
 * assigned every partition of the topic, it seeks to the first record written {@value #LOOKBACK_MINUTES} minutes
 * before the decision's time (the parts are sent, and acknowledged, just before the decision) and reads up to the end
 * offsets it found, keeping the records keyed {@code release/<requestId>} whose decision id and digest are the
 * decision's. Any instance of the provider-adapter can so read the parts of any decision, whatever partitions its
 * consumer group gave it. Needs READ on the topic (declared as {@code stowage.kafka.assigned.gate-inventory}, from
 * which the ACL table is derived); connects with {@code kafka.bootstrap.servers} and, when set, the SCRAM login the
 * channels use. One read at a time (the release handler executes one release at a time).
 */
@ApplicationScoped
public class GateInventoryReader implements InventoryParts {
    /** How far before the decision's time the read starts, in minutes. */
    public static final long LOOKBACK_MINUTES = 60;
    private static final Logger LOG = Logger.getLogger(GateInventoryReader.class);
    private static final Duration READ_LIMIT = Duration.ofSeconds(60);

    private final Map<String, Object> settings = new HashMap<>();

    GateInventoryReader(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
                        @ConfigProperty(name = "kafka.security.protocol") Optional<String> protocol,
                        @ConfigProperty(name = "kafka.sasl.mechanism") Optional<String> mechanism,
                        @ConfigProperty(name = "kafka.sasl.jaas.config") Optional<String> jaas) {
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        protocol.ifPresent(v -> settings.put("security.protocol", v));
        mechanism.ifPresent(v -> settings.put("sasl.mechanism", v));
        jaas.ifPresent(v -> settings.put("sasl.jaas.config", v));
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "stowage-provider-adapter-gate-inventory");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    }

    @Override
    public synchronized Optional<List<InventoryEntry>> join(GatePassed decision) {
        String key = decision.assetId();
        TreeMap<Integer, List<InventoryEntry>> found = new TreeMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings)) {
            List<TopicPartition> partitions = partitions(consumer);
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            seekBefore(consumer, partitions, decision.meta().time().toEpochMilli() - LOOKBACK_MINUTES * 60_000, ends);
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (!allRead(consumer, ends) && found.size() < decision.inventoryParts()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(Topics.GATE_INVENTORY + " not read up to its end within "
                            + READ_LIMIT.toSeconds() + " s: the inventory of decision " + decision.meta().eventId()
                            + " is not known yet");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(record.key())) {
                        part(record, decision).ifPresent(p -> found.putIfAbsent(p.part(), p.entries()));
                    }
                }
            }
        } catch (KafkaException e) {
            throw new IllegalStateException("cannot read " + Topics.GATE_INVENTORY + ": " + e.getMessage(), e);
        }
        if (found.size() != decision.inventoryParts() || (!found.isEmpty() && found.lastKey() != decision.inventoryParts() - 1)) {
            LOG.warnf("decision %s names %d %s part(s); %d found up to the topic's end", decision.meta().eventId(),
                    decision.inventoryParts(), Topics.GATE_INVENTORY, found.size());
            return Optional.empty();
        }
        List<InventoryEntry> joined = new ArrayList<>(decision.fileCount());
        found.values().forEach(joined::addAll);
        return Optional.of(joined);
    }

    private static Optional<GateInventory> part(ConsumerRecord<String, byte[]> record, GatePassed decision) {
        try {
            GateInventory part = EventCodec.decode(GateInventory.class, record.value());
            boolean ours = part.decisionId().equals(decision.meta().eventId()) && part.requestId().equals(decision.requestId())
                    && part.inventoryDigest().equals(decision.inventoryDigest()) && part.parts() == decision.inventoryParts();
            return ours ? Optional.of(part) : Optional.empty();
        } catch (InvalidEventException e) {
            LOG.warnf("skipping an undecodable %s record at %d/%d: %s", Topics.GATE_INVENTORY, record.partition(),
                    record.offset(), e.getMessage());
            return Optional.empty();
        }
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer) {
        List<PartitionInfo> infos = consumer.partitionsFor(Topics.GATE_INVENTORY, Duration.ofSeconds(10));
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + Topics.GATE_INVENTORY + " does not exist on the broker");
        }
        return infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
    }

    private static void seekBefore(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions, long millis,
                                   Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Long> times = new HashMap<>();
        partitions.forEach(p -> times.put(p, Math.max(0, millis)));
        Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(times, Duration.ofSeconds(10));
        for (TopicPartition p : partitions) {
            OffsetAndTimestamp at = offsets.get(p);
            consumer.seek(p, at == null ? ends.get(p) : at.offset());
        }
    }

    private static boolean allRead(KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
