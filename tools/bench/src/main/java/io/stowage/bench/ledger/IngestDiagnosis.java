package io.stowage.bench.ledger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * What the ledger holds against what the broker holds, for an ingest that stopped short of the events published:
 * for every partition of the published topics, the broker's offset range, the ledger's rows
 * ({@code ledger_event.kafka_partition/kafka_offset}, dead letters apart), the first offsets the ledger lacks, the
 * offset the ledger's consumer group ({@code stowage-ledger}) committed, and the ledger's own warnings and errors.
 * Read-only: it changes neither the broker, the group nor the database.
 */
final class IngestDiagnosis {
    private static final String GROUP = "stowage-ledger";
    private static final Pattern NOTEWORTHY = Pattern.compile("WARN|ERROR|rebalanc|revok|assign|dead-letter", Pattern.CASE_INSENSITIVE);

    private IngestDiagnosis() {
    }

    /**
     * @param bootstrapServers the broker the events were published to
     * @param db               the ledger's database
     * @param topics           the topics the events were published to
     * @param ledgerLog        the ledger process's console log; its noteworthy lines (the last 40) are included
     * @return a multi-line report, one line per partition, then the log lines
     */
    static String describe(String bootstrapServers, Connection db, Collection<String> topics, Path ledgerLog) {
        StringBuilder out = new StringBuilder("ledger against broker, per partition:\n");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                    partitions.add(new TopicPartition(topic, p.partition()));
                }
            }
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, Duration.ofSeconds(30));
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            for (TopicPartition tp : partitions) {
                List<Long> held = offsets(db, tp);
                List<Long> missing = new ArrayList<>();
                int i = 0;
                for (long o = begin.get(tp); o < end.get(tp) && missing.size() < 10; o++) {
                    while (i < held.size() && held.get(i) < o) {
                        i++;
                    }
                    if (i >= held.size() || held.get(i) != o) {
                        missing.add(o);
                    }
                }
                OffsetAndMetadata c = committed.get(tp);
                out.append(String.format("  %s: broker offsets [%d, %d), ledger rows %d, committed %s%s%n", tp, begin.get(tp),
                        end.get(tp), held.size(), c == null ? "none" : c.offset(),
                        missing.isEmpty() ? "" : ", lacks offsets " + missing));
            }
            out.append(String.format("  dead letters in the ledger: %d%n", deadLetters(db)));
        } catch (Exception e) {
            out.append("  (could not compare: ").append(e).append(")\n");
        }
        out.append("the ledger's noteworthy log lines (last 40):\n");
        try {
            List<String> lines = Files.readAllLines(ledgerLog, StandardCharsets.UTF_8).stream()
                    .filter(l -> NOTEWORTHY.matcher(l).find()).toList();
            lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(l -> out.append("  ").append(l).append('\n'));
        } catch (IOException e) {
            out.append("  (no log: ").append(e.getMessage()).append(")\n");
        }
        return out.toString();
    }

    private static List<Long> offsets(Connection db, TopicPartition tp) throws Exception {
        List<Long> held = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement("select kafka_offset from ledger_event where topic = ? and kafka_partition = ?"
                + " and not dead_letter order by kafka_offset")) {
            s.setString(1, tp.topic());
            s.setInt(2, tp.partition());
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    held.add(r.getLong(1));
                }
            }
        }
        return held;
    }

    private static long deadLetters(Connection db) throws Exception {
        try (PreparedStatement s = db.prepareStatement("select count(*) from ledger_event where dead_letter");
             ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }
}
