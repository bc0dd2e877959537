package io.stowage.stack;

import io.stowage.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A stack of its own (not the shared one): stop, start again in the same directory. */
class EmbeddedStackRestartTest {
    private static final byte[] OBJECT = "kept across restarts".getBytes(StandardCharsets.UTF_8);

    @Test
    void aRestartInTheSameDirectoryKeepsRecordsObjectsAndRowsAndRotatesCredentials(@TempDir Path dir) throws Exception {
        Set<Long> childrenBefore = children();
        StackEndpoints first;
        RecordMetadata sent;
        try (EmbeddedStack stack = EmbeddedStack.start(dir)) {
            first = stack.endpoints();
            assertThat(children()).hasSize(childrenBefore.size() + 3); // broker JVM, S3Proxy JVM, watchdog
            sent = send(first, "kept".getBytes(StandardCharsets.UTF_8));
            try (S3Client s3 = s3(first)) {
                s3.putObject(b -> b.bucket(first.replicaBucket()).key("restart/probe"), RequestBody.fromBytes(OBJECT));
            }
            sql(first, "create table kept (id int primary key); insert into kept values (42)");
        }
        assertThat(children()).as("servers stopped by close()").isEqualTo(childrenBefore);

        try (EmbeddedStack stack = EmbeddedStack.start(dir)) {
            StackEndpoints second = stack.endpoints();
            assertThat(second.s3SecretKey()).isNotEqualTo(first.s3SecretKey());
            assertThat(second.pgPassword()).isNotEqualTo(first.pgPassword());
            assertThat(receiveAt(second, sent)).isEqualTo("kept".getBytes(StandardCharsets.UTF_8));
            try (S3Client s3 = s3(second)) {
                assertThat(s3.getObjectAsBytes(b -> b.bucket(second.replicaBucket()).key("restart/probe")).asByteArray()).isEqualTo(OBJECT);
            }
            try (Connection db = DriverManager.getConnection(second.pgJdbcUrl(), second.pgUser(), second.pgPassword());
                 Statement statement = db.createStatement(); ResultSet row = statement.executeQuery("select id from kept")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getInt(1)).isEqualTo(42);
            }
        }
    }

    private static Set<Long> children() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private static RecordMetadata send(StackEndpoints stack, byte[] value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", stack.kafkaBootstrapServers(),
                "acks", "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            return producer.send(new ProducerRecord<>(Topics.GATE_PASSED, "asset".getBytes(StandardCharsets.UTF_8), value))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static byte[] receiveAt(StackEndpoints stack, RecordMetadata sent) {
        TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
        List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", stack.kafkaBootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, sent.offset());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return !received.isEmpty();
            });
        }
        return received.get(0).value();
    }

    private static S3Client s3(StackEndpoints stack) {
        return S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey())))
                .build();
    }

    private static void sql(StackEndpoints stack, String statements) throws Exception {
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             Statement statement = db.createStatement()) {
            statement.execute(statements);
        }
    }
}
