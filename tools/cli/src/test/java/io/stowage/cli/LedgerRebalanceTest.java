package io.stowage.cli;

import io.stowage.cli.platform.ServiceTokens;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Topics;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redelivery across a rebalance: two packaged ledger processes in consumer group {@code stowage-ledger} consume
 * {@code object.uploaded} (4 partitions) while events are published in four waves (some twice); between the waves
 * a second instance joins, the first leaves gracefully, the second is killed with SIGKILL (its uncommitted batches
 * are redelivered to the survivor) and a new one joins. An AdminClient samples the group's committed offsets every
 * 50 ms throughout. Then: every event id has exactly one row, seq is 1..N without a gap, the chain verifies, each
 * partition's committed offset never moved backwards and ends at the end offset.
 * Needs the packaged ledger ({@code ./mvnw -B -q -pl services/ledger -am package -DskipTests}).
 */
@ExtendWith(StowageStackExtension.class)
class LedgerRebalanceTest {
    /** The API needs a bearer token: a fresh reader token, given to the ledgers as its hash. */
    private static final String READER_TOKEN = ServiceTokens.newToken();

    private static final String GROUP = "stowage-ledger";
    private final List<Process> ledgers = new ArrayList<>();
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void stopLedgers() throws InterruptedException {
        for (Process p : ledgers) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyEventOnceChainIntactOffsetsOnlyForward(StackEndpoints stack) throws Exception {
        Path app = Repo.root().resolve("services/ledger/target/quarkus-app");
        assertThat(app.resolve("quarkus-run.jar")).as("package the ledger first").isRegularFile();
        Path logs = Files.createTempDirectory("ledger-rebalance-");
        // a copy, so that a rebuild of the ledger during the run cannot pull the jars from under the processes
        Path jar = copy(app, logs.resolve("quarkus-app")).resolve("quarkus-run.jar");
        Set<String> ids = new LinkedHashSet<>();
        Map<TopicPartition, List<Long>> committed = new ConcurrentHashMap<>();
        List<String> backwards = new CopyOnWriteArrayList<>();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers()));
             KafkaProducer<String, byte[]> producer = producer(stack)) {
            sampler.scheduleWithFixedDelay(() -> sample(admin, committed, backwards), 0, 50, TimeUnit.MILLISECONDS);

            PackagedLedger a = start(jar, stack, logs.resolve("a.log"));
            a.awaitReady();
            publish(producer, ids, 0, 1500);
            PackagedLedger b = start(jar, stack, logs.resolve("b.log"));       // joins mid-stream
            publish(producer, ids, 1500, 1500);
            b.awaitReady();
            publish(producer, ids, 3000, 1500);
            a.process().destroy();                                          // leaves gracefully (SIGTERM)
            publish(producer, ids, 4500, 1500);
            awaitSomeStored(stack, 5000);
            b.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);    // dies without committing (SIGKILL)
            PackagedLedger c = start(jar, stack, logs.resolve("c.log"));        // a new instance takes over
            publish(producer, ids, 6000, 1500);
            c.awaitReady();

            await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(storedOf(stack, ids)).isEqualTo(ids.size()));
            Map<TopicPartition, Long> ends = endOffsets(admin);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(lastCommitted(committed, ends.keySet())).isEqualTo(ends));

            try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
                assertThat(single(db, "select count(*) from ledger_event where event_id like 'rebalance-" + run + "-%'"))
                        .as("one row per event id, none missing, none extra").isEqualTo(ids.size());
                long rows = single(db, "select count(*) from ledger_event");
                assertThat(single(db, "select max(seq) from ledger_event")).as("seq without gap").isEqualTo(rows);
                assertThat(single(db, "select seq from ledger_chain_head")).isEqualTo(rows);
            }
            String chain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(c.url() + "/api/audit/chain"))
                            .header("Authorization", "Bearer " + READER_TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(chain).contains("\"ok\":true");
            sampler.shutdownNow();
            assertThat(backwards).as("committed offsets only move forward").isEmpty();
            assertThat(committed.values().stream().mapToInt(List::size).sum()).as("offsets were sampled").isGreaterThan(40);
        } finally {
            sampler.shutdownNow();
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
        return to;
    }

    private void publish(KafkaProducer<String, byte[]> producer, Set<String> ids, int from, int count) throws Exception {
        List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String asset = "dataset/rebalance-" + run + "-" + (i % 40) + "/r1";
            ObjectUploaded event = ObjectUploaded.of(new EventMeta("rebalance-" + run + "-" + i, 1, Instant.now(), asset, null),
                    asset, "primary", "stowage-primary", "datasets/rebalance-" + run + "/" + i, ObjectKind.SHARD, i,
                    "5".repeat(64), "etag-" + i, "/staging/" + run + "/" + i, false);
            ids.add(event.meta().eventId());
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.OBJECT_UPLOADED, asset, EventCodec.encode(event));
            CloudEventHeaders.of(event, "/stowage/test").forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
            acks.add(producer.send(record));
            if (i % 10 == 0) {
                acks.add(producer.send(record));                          // redelivered by the producer side too
            }
        }
        for (java.util.concurrent.Future<?> ack : acks) {
            ack.get(30, TimeUnit.SECONDS);
        }
    }

    private static void sample(Admin admin, Map<TopicPartition, List<Long>> committed, List<String> backwards) {
        try {
            Map<TopicPartition, OffsetAndMetadata> now = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata()
                    .get(5, TimeUnit.SECONDS);
            now.forEach((tp, offset) -> {
                if (offset == null || !tp.topic().equals(Topics.OBJECT_UPLOADED)) {
                    return;
                }
                List<Long> seen = committed.computeIfAbsent(tp, k -> new CopyOnWriteArrayList<>());
                if (!seen.isEmpty() && offset.offset() < seen.get(seen.size() - 1)) {
                    backwards.add(tp + ": " + seen.get(seen.size() - 1) + " -> " + offset.offset());
                }
                seen.add(offset.offset());
            });
        } catch (Exception e) {
            // the group may be rebalancing; the next sample will tell
        }
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new java.util.HashMap<>();
        for (int p = 0; p < 4; p++) {
            request.put(new TopicPartition(Topics.OBJECT_UPLOADED, p), OffsetSpec.latest());
        }
        return admin.listOffsets(request).all().get(10, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static Map<TopicPartition, Long> lastCommitted(Map<TopicPartition, List<Long>> committed, Set<TopicPartition> of) {
        return of.stream().filter(committed::containsKey)
                .collect(Collectors.toMap(tp -> tp, tp -> committed.get(tp).get(committed.get(tp).size() - 1)));
    }

    private void awaitSomeStored(StackEndpoints stack, int count) {
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> single(stack, "select count(*) from ledger_event where event_id like 'rebalance-" + run + "-%'") >= count);
    }

    private long storedOf(StackEndpoints stack, Set<String> ids) throws Exception {
        return single(stack, "select count(*) from ledger_event where event_id like 'rebalance-" + run + "-%'");
    }

    private static long single(StackEndpoints stack, String sql) throws Exception {
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            return single(db, sql);
        }
    }

    private static long single(Connection db, String sql) throws Exception {
        try (PreparedStatement statement = db.prepareStatement(sql); ResultSet rows = statement.executeQuery()) {
            assertThat(rows.next()).isTrue();
            return rows.getLong(1);
        }
    }

    private static KafkaProducer<String, byte[]> producer(StackEndpoints stack) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    }

    private PackagedLedger start(Path jar, StackEndpoints stack, Path log) throws IOException {
        // short session timeout: the partitions of a SIGKILLed member move after 6 s, not the default 45 s
        PackagedLedger ledger = PackagedLedger.start(jar, stack.environment(), log, READER_TOKEN,
                "-Dmp.messaging.incoming.ledger-events.session.timeout.ms=6000",
                "-Dmp.messaging.incoming.ledger-events.heartbeat.interval.ms=1000",
                "-Dmp.messaging.incoming.ledger-dead-letters.session.timeout.ms=6000",
                "-Dmp.messaging.incoming.ledger-dead-letters.heartbeat.interval.ms=1000");
        ledgers.add(ledger.process());
        return ledger;
    }
}
