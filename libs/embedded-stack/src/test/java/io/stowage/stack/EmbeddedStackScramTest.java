package io.stowage.stack;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The stack as {@code stowage up} starts it: the broker with SCRAM users and exactly the ACLs of
 * {@code compose/kafka/acls.txt}; started again in the same directory with new passwords (a new session), the new
 * passwords work, the old ones do not, the records are kept, and a directory left by a PLAINTEXT start is moved aside.
 */
class EmbeddedStackScramTest {

    @Test
    void theBrokerEnforcesTheTableAndANewSessionRotatesThePasswords(@TempDir Path dir) throws Exception {
        KafkaAclTable table = KafkaAclTable.read(KafkaAclTable.locate());
        KafkaSecurity first = KafkaSecurity.generate(table);
        String key = "kept-" + UUID.randomUUID();
        try (EmbeddedStack stack = EmbeddedStack.start(dir, StackCredentials.random(), first)) {
            try (Admin admin = Admin.create(new HashMap<>(stack.kafkaSuperUser()))) {
                assertThat(new HashSet<>(admin.describeAcls(AclBindingFilter.ANY).values().get()))
                        .isEqualTo(new HashSet<>(table.bindings()));
            }
            send(stack.kafkaClient("gatekeeper"), "gate.passed", key);
            Throwable forged = catchThrowable(() -> send(stack.kafkaClient("uploader"), "gate.passed", "forged"));
            assertThat(rootCause(forged)).isInstanceOf(TopicAuthorizationException.class);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("kafka/admin.password"))))
                .isEqualTo("rw-------");

        KafkaSecurity second = KafkaSecurity.generate(table);
        try (EmbeddedStack stack = EmbeddedStack.start(dir, StackCredentials.random(), second)) {
            send(stack.kafkaClient("gatekeeper"), "gate.passed", "second-" + key);
            Map<String, String> old = first.client(stack.endpoints().kafkaBootstrapServers(), "gatekeeper");
            assertThat(rootCause(catchThrowable(() -> send(old, "gate.passed", "old-password"))))
                    .isInstanceOf(SaslAuthenticationException.class);
            assertThat(new KafkaProbe(stack.kafkaSuperUser(), java.time.Duration.ofSeconds(30)).keysUpToEnd("gate.passed"))
                    .contains(key, "second-" + key);
        }
    }

    @Test
    void aPlaintextBrokerDirectoryIsMovedAsideNotDeleted(@TempDir Path dir) throws Exception {
        try (EmbeddedStack plain = EmbeddedStack.start(dir)) {
            assertThat(plain.kafkaSecurity()).isNull();
        }
        try (EmbeddedStack stack = EmbeddedStack.start(dir, StackCredentials.random(),
                KafkaSecurity.generate(KafkaAclTable.read(KafkaAclTable.locate())))) {
            send(stack.kafkaClient("verifier"), "object.verified", "after-the-move");
        }
        try (var kept = Files.list(dir)) {
            assertThat(kept.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("kafka.plaintext-"));
        }
    }

    private static void send(Map<String, String> login, String topic, String key) throws Exception {
        Map<String, Object> config = new HashMap<>(login);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, key, key.getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t != null && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
