package io.stowage.stack;

import io.stowage.events.Topics;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@ExtendWith(StowageStackExtension.class)
class EmbeddedStackTest {

    @Test
    void everyTopicAndItsDeadLetterTopicHasFourPartitionsWithLeadersAndInfiniteRetention(StackEndpoints stack) throws Exception {
        List<String> expected = new ArrayList<>();
        Topics.ALL.forEach(t -> expected.addAll(List.of(t, Topics.dlq(t))));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafkaBootstrapServers()))) {
            Map<String, TopicDescription> topics = admin.describeTopics(expected).allTopicNames().get(30, TimeUnit.SECONDS);
            assertThat(topics).hasSize(expected.size());
            topics.values().forEach(t -> {
                assertThat(t.partitions()).as(t.name()).hasSize(4);
                assertThat(t.partitions()).allSatisfy(p -> assertThat(p.leader().id()).isEqualTo(1));
            });
            List<ConfigResource> resources = expected.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
            Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
            assertThat(configs.values()).hasSize(expected.size()).allSatisfy(c -> assertThat(c.get("retention.ms").value()).isEqualTo("-1"));
        }
    }

    @Test
    void aRecordSentToAStackTopicIsConsumedWithItsKeyValueAndHeader(StackEndpoints stack) throws Exception {
        byte[] value = ("{\"probe\":" + System.nanoTime() + "}").getBytes(StandardCharsets.UTF_8);
        RecordMetadata sent;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", stack.kafkaBootstrapServers(),
                "acks", "all", "enable.idempotence", "true"), new ByteArraySerializer(), new ByteArraySerializer())) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(Topics.SHARD_BUILT, "asset-1".getBytes(StandardCharsets.UTF_8), value);
            record.headers().add("ce_id", "event-1".getBytes(StandardCharsets.UTF_8));
            sent = producer.send(record).get(30, TimeUnit.SECONDS);
        }
        TopicPartition partition = new TopicPartition(Topics.SHARD_BUILT, sent.partition());
        List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", stack.kafkaBootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, sent.offset());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                records.forEach(received::add);
                return !received.isEmpty();
            });
        }
        ConsumerRecord<byte[], byte[]> first = received.get(0);
        assertThat(first.offset()).isEqualTo(sent.offset());
        assertThat(new String(first.key(), StandardCharsets.UTF_8)).isEqualTo("asset-1");
        assertThat(first.value()).isEqualTo(value);
        assertThat(first.headers().lastHeader("ce_id").value()).isEqualTo("event-1".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anObjectPutInThePrimaryBucketReadsBackByteForByte(StackEndpoints stack) {
        byte[] bytes = new byte[3 * 1024 * 1024 + 17];
        new Random(42).nextBytes(bytes);
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey())))
                .build()) {
            s3.putObject(b -> b.bucket(stack.primaryBucket()).key("probe/object.bin"), RequestBody.fromBytes(bytes));

            assertThat(s3.getObjectAsBytes(b -> b.bucket(stack.primaryBucket()).key("probe/object.bin")).asByteArray()).isEqualTo(bytes);
            assertThat(s3.headBucket(b -> b.bucket(stack.replicaBucket())).sdkHttpResponse().statusCode()).isEqualTo(200);
        }
    }

    @Test
    void postgresAnswersOverJdbcAndKeepsARowInANewTable(StackEndpoints stack) throws SQLException {
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             Statement sql = db.createStatement()) {
            try (ResultSet one = sql.executeQuery("select 1")) {
                assertThat(one.next()).isTrue();
                assertThat(one.getInt(1)).isEqualTo(1);
            }
            sql.execute("create table if not exists stack_probe (id bigint primary key, name text not null)");
            sql.execute("insert into stack_probe values (7, 'seven') on conflict (id) do update set name = excluded.name");
            try (ResultSet row = sql.executeQuery("select name, current_database(), current_user from stack_probe where id = 7")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString(1)).isEqualTo("seven");
                assertThat(row.getString(2)).isEqualTo("stowage");
                assertThat(row.getString(3)).isEqualTo(stack.pgUser());
            }
        }
    }

    @Test
    void postgresRefusesAWrongPassword(StackEndpoints stack) {
        assertThatThrownBy(() -> DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), "wrong").close())
                .isInstanceOf(SQLException.class).hasMessageContaining("password authentication failed");
    }

    @Test
    void theReactiveUrlConnectsWithTheVertxPgClient(StackEndpoints stack) throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            PgConnectOptions options = PgConnectOptions.fromUri(stack.pgReactiveUrl())
                    .setUser(stack.pgUser()).setPassword(stack.pgPassword());
            Row row = PgConnection.connect(vertx, options)
                    .compose(connection -> connection.query("select current_database(), current_user").execute()
                            .eventually(() -> connection.close()))
                    .map(rows -> rows.iterator().next())
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(row.getString(0)).isEqualTo("stowage");
            assertThat(row.getString(1)).isEqualTo(stack.pgUser());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
