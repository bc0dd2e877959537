package io.stowage.stack;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Starts a second, separate Kafka 4.1.2 broker (KRaft) whose client listener is SASL_PLAINTEXT with SCRAM-SHA-512 and
 * whose authorizer is the {@code StandardAuthorizer} (deny when no ACL matches), creates one SCRAM user per principal of
 * {@code compose/kafka/acls.txt} and that file's ACLs, then produces as each service (least privilege): only the gatekeeper
 * may write {@code gate.passed}, only the provider-adapter {@code volume.released}. The default stack stays PLAINTEXT.
 */
class KafkaScramAclTest {
    private static final String GATE_PASSED = "gate.passed";
    private static final String VOLUME_RELEASED = "volume.released";

    @TempDir
    static Path dir;

    private static KafkaAclTable table;
    private static ScramKafka kafka;
    private static Admin admin;
    private static final Map<String, String> passwords = new LinkedHashMap<>();

    @BeforeAll
    static void startScramBroker() throws Exception {
        table = KafkaAclTable.read(KafkaAclTable.locate());
        kafka = ScramKafka.start(dir.resolve("kafka"));
        admin = kafka.admin();
        table.principals().forEach(p -> passwords.put(p, ScramKafka.secret()));
        kafka.apply(table, passwords, table.topics());

        await("the ACLs and users reach the authorizer").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .until(() -> send("gatekeeper", GATE_PASSED, "ready") != null);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void everyRuleOfTheTableIsInTheBroker() throws Exception {
        var stored = admin.describeAcls(AclBindingFilter.ANY).values().get();

        assertThat(new TreeSet<>(stored.stream().map(Object::toString).toList()))
                .isEqualTo(new TreeSet<>(table.bindings().stream().map(Object::toString).toList()));
    }

    @Test
    void theGatekeepersGatePassedReachesTheProviderAdapter() throws Exception {
        String value = "{\"eventId\":\"" + ScramKafka.secret() + "\",\"type\":\"gate.passed\"}";

        RecordMetadata sent = send("gatekeeper", GATE_PASSED, value);

        assertThat(sent.topic()).isEqualTo(GATE_PASSED);
        try (KafkaConsumer<String, byte[]> consumer = consumer("provider-adapter", "stowage-provider-adapter")) {
            TopicPartition partition = new TopicPartition(GATE_PASSED, sent.partition());
            consumer.assign(List.of(partition));
            consumer.seek(partition, sent.offset());
            AtomicReference<ConsumerRecord<String, byte[]>> got = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> got.compareAndSet(null, r));
                return got.get() != null;
            });
            assertThat(got.get().offset()).isEqualTo(sent.offset());
            assertThat(new String(got.get().value(), StandardCharsets.UTF_8)).isEqualTo(value);
            consumer.commitSync(); // the group ACL (READ on stowage-provider-adapter) is exercised too
        }
    }

    @Test
    void theUploaderCannotWriteGatePassed() {
        Throwable refused = catchThrowable(() -> send("uploader", GATE_PASSED, "forged"));

        assertThat(rootCause(refused)).isInstanceOf(TopicAuthorizationException.class);
        assertThat(((TopicAuthorizationException) rootCause(refused)).unauthorizedTopics()).containsExactly(GATE_PASSED);
    }

    @Test
    void everyPrincipalButTheGatekeeperIsRefusedGatePassed() {
        assertThat(refusedWriters(GATE_PASSED)).isEqualTo(without(table.principals(), "gatekeeper"));
        assertThat(table.allowed(AclOperation.WRITE, GATE_PASSED)).containsExactly("gatekeeper");
    }

    @Test
    void onlyTheProviderAdapterWritesVolumeReleased() throws Exception {
        assertThat(send("provider-adapter", VOLUME_RELEASED, "released").topic()).isEqualTo(VOLUME_RELEASED);
        assertThat(refusedWriters(VOLUME_RELEASED)).isEqualTo(without(table.principals(), "provider-adapter"));
        assertThat(table.allowed(AclOperation.WRITE, VOLUME_RELEASED)).containsExactly("provider-adapter");
    }

    @Test
    void aWrongPasswordIsNotAuthenticated() {
        Throwable refused = catchThrowable(() -> sendAs("gatekeeper", ScramKafka.secret(), GATE_PASSED, "x"));

        assertThat(rootCause(refused)).isInstanceOf(SaslAuthenticationException.class);
    }

    /** @return the principals of the table whose send to {@code topic} fails with TopicAuthorizationException */
    private static Set<String> refusedWriters(String topic) {
        Set<String> refused = new TreeSet<>();
        for (String principal : table.principals()) {
            Throwable t = catchThrowable(() -> send(principal, topic, "probe from " + principal));
            if (rootCause(t) instanceof TopicAuthorizationException) {
                refused.add(principal);
            } else {
                assertThat(t).as(principal + " writing " + topic).isNull();
            }
        }
        return refused;
    }

    private static RecordMetadata send(String principal, String topic, String value) throws Exception {
        return sendAs(principal, passwords.get(principal), topic, value);
    }

    private static RecordMetadata sendAs(String principal, String password, String topic, String value) throws Exception {
        Properties p = kafka.client(principal, password);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p)) {
            return producer.send(new ProducerRecord<>(topic, "asset", value.getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    private static KafkaConsumer<String, byte[]> consumer(String principal, String group) {
        Properties p = kafka.client(principal, passwords.get(principal));
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    private static Set<String> without(Set<String> all, String one) {
        Set<String> rest = new TreeSet<>(all);
        rest.remove(one);
        return rest;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable c = t;
        while (c != null && c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c;
    }

}
