package io.stowage.cli;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GateDenied;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaAclTable;
import io.stowage.stack.ScramKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged gatekeeper (a real Quarkus process) against a SCRAM broker with the ACLs of {@code compose/kafka/acls.txt}
 * (least privilege): configured only through the environment variables compose gives it ({@code KAFKA_SECURITY_PROTOCOL},
 * {@code KAFKA_SASL_MECHANISM}, {@code KAFKA_SASL_JAAS_CONFIG} with its own user, {@code STOWAGE_STORE_*}), it consumes a release request (sent
 * as the provider-adapter, as for a volume's TTL) in its group and writes {@code gate.denied} (the ledger is unreachable: it fails closed), which the
 * provider-adapter's user reads back. Needs {@code ./mvnw -DskipTests package} first, like the other end-to-end tests.
 */
class GatekeeperOverScramTest {

    @TempDir
    Path dir;

    @Test
    void theGatekeeperLogsInWithItsOwnUserAndDeniesWhenTheLedgerIsUnreachable() throws Exception {
        Path jar = Repo.root().resolve("services/gatekeeper/target/quarkus-app/quarkus-run.jar");
        assertThat(jar).as("run ./mvnw -B -q -DskipTests package first").isRegularFile();
        KafkaAclTable table = KafkaAclTable.read(KafkaAclTable.locate());
        Map<String, String> passwords = new TreeMap<>();
        table.principals().forEach(p -> passwords.put(p, ScramKafka.secret()));
        Path volume = Files.createDirectories(dir.resolve("hot/run-1"));
        try (ScramKafka kafka = ScramKafka.start(dir.resolve("kafka"))) {
            kafka.apply(table, passwords, table.topics());
            Process gatekeeper = startGatekeeper(jar, kafka, passwords.get("gatekeeper"), dir.resolve("gatekeeper.log"));
            try {
                String requestId = "scram-" + UUID.randomUUID();
                ReleaseRequested request = ReleaseRequested.of(EventMeta.first(requestId, Clock.systemUTC()), requestId,
                        volume.toString(), true, "provider-adapter");
                // the provider-adapter (a volume's TTL) is the one writer of requests besides the gatekeeper's own API
                await("the provider-adapter's request is accepted").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> publish(kafka.client("provider-adapter", passwords.get("provider-adapter")), request));

                GateDenied denied = awaitDenial(kafka.client("provider-adapter", passwords.get("provider-adapter")), requestId);

                assertThat(denied.requestId()).isEqualTo(requestId);
                assertThat(denied.path()).isEqualTo(volume.toString());
                assertThat(denied.failed()).extracting(f -> f.code()).contains("ledger-unavailable");
                assertThat(Files.readString(dir.resolve("gatekeeper.log")))
                        .doesNotContain("TopicAuthorizationException", "SaslAuthenticationException", "GroupAuthorizationException")
                        .doesNotContain(passwords.get("gatekeeper"));
            } finally {
                gatekeeper.destroy();
                gatekeeper.waitFor();
            }
        }
        assertThat(Files.exists(volume)).as("a denied dry run deletes nothing").isTrue();
    }

    private static Process startGatekeeper(Path jar, ScramKafka kafka, String password, Path log) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
        Map<String, String> env = builder.environment();
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT");
        env.put("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512");
        env.put("KAFKA_SASL_JAAS_CONFIG", ScramKafka.jaas("gatekeeper", password));
        env.put("QUARKUS_HTTP_PORT", String.valueOf(freePort()));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("STOWAGE_LEDGER_URL", "http://127.0.0.1:" + freePort()); // nobody listens: the gate fails closed
        env.put("STOWAGE_GATEKEEPER_LEDGER_WAIT", "2s");
        env.put("STOWAGE_GATE_SIGNING_KEY", ScramKafka.secret() + ScramKafka.secret());
        // the stores the gate HEADs at decision time (compose gives it the verifier's read-only user); nobody listens:
        // this request is denied before any object is looked at
        String store = "http://127.0.0.1:" + freePort();
        for (String name : List.of("PRIMARY", "REPLICA")) {
            env.put("STOWAGE_STORE_" + name + "_ENDPOINT", store);
            env.put("STOWAGE_STORE_" + name + "_BUCKET", "stowage-" + name.toLowerCase(java.util.Locale.ROOT));
            env.put("STOWAGE_STORE_" + name + "_ACCESS_KEY_ID", "read-only");
            env.put("STOWAGE_STORE_" + name + "_SECRET_ACCESS_KEY", ScramKafka.secret());
        }
        return builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static boolean publish(Properties client, ReleaseRequested event) throws Exception {
        client.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        client.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        client.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(event.topic(), event.assetId(), EventCodec.encode(event));
        CloudEventHeaders.of(event, "/stowage/provider-adapter").forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(client)) {
            return producer.send(record).get() != null;
        }
    }

    private static GateDenied awaitDenial(Properties client, String requestId) {
        client.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        client.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        client.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        AtomicReference<GateDenied> found = new AtomicReference<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(client)) {
            consumer.assign(List.of(new TopicPartition(Topics.GATE_DENIED, 0)));
            consumer.seekToBeginning(consumer.assignment());
            await("gate.denied for " + requestId).atMost(Duration.ofSeconds(150)).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    GateDenied d = EventCodec.decode(GateDenied.class, r.value());
                    if (d.requestId().equals(requestId)) {
                        found.set(d);
                    }
                }
                return found.get() != null;
            });
        }
        return found.get();
    }

    private static int freePort() throws Exception {
        return io.stowage.stack.LoopbackPorts.pick();
    }
}
