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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A database outage never turns valid evidence into dead letters: the packaged ledger reaches the stack's real
 * PostgreSQL through a TCP relay that this test cuts (every connection closed, new ones refused) while 40
 * {@code object.uploaded} events arrive, for longer than the ledger's store retries (lowered to 2 retries of
 * 0.1-0.5 s, so that without the rule every event would be dead-lettered within seconds), and one dead letter
 * arrives on {@code object.uploaded.dlq}. While cut: no event is sent to {@code object.uploaded.dlq} and the ledger
 * says it waits. Once the relay is back: every event is stored as itself (no {@code dlq:} row), the dead letter is
 * stored (its consumer waited through the outage too, instead of failing its channel), and the hash chain verifies.
 * Needs the packaged ledger ({@code ./mvnw -B -q -pl services/ledger -am package -DskipTests}).
 */
@ExtendWith(StowageStackExtension.class)
class LedgerDatabaseOutageTest {
    private static final String READER_TOKEN = ServiceTokens.newToken();

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private Process ledger;
    private Relay relay;

    @AfterEach
    void stop() throws Exception {
        if (ledger != null) {
            ledger.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (relay != null) {
            relay.close();
        }
    }

    @Test
    void validEventsWaitForTheDatabaseAndAreNeverDeadLettered(StackEndpoints stack) throws Exception {
        Path app = Repo.root().resolve("services/ledger/target/quarkus-app/quarkus-run.jar");
        assertThat(app).as("package the ledger first").isRegularFile();
        URI pg = URI.create(stack.pgReactiveUrl());
        relay = new Relay(new InetSocketAddress(pg.getHost(), pg.getPort()));
        Path log = Files.createTempFile("ledger-outage-", ".log");
        Map<String, String> environment = new HashMap<>(stack.environment());
        environment.put(StackEndpoints.environmentName("quarkus.datasource.reactive.url"),
                "postgresql://127.0.0.1:" + relay.port() + pg.getPath());
        PackagedLedger started = PackagedLedger.start(app, environment, log, READER_TOKEN,
                "-Dstowage.ledger.store-retry.max-retries=2",
                "-Dstowage.ledger.store-retry.initial-backoff=PT0.1S",
                "-Dstowage.ledger.store-retry.max-backoff=PT0.5S");
        ledger = started.process();
        String url = started.url();
        started.awaitReady();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers()));
             KafkaProducer<String, byte[]> producer = producer(stack)) {
            Map<TopicPartition, Long> deadLettersBefore = ends(admin, Topics.dlq(Topics.OBJECT_UPLOADED));
            publish(producer, 0, 10);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                    .until(() -> stored(stack, "'" + run + "-%'") == 10);

            relay.cut();
            publish(producer, 10, 40);
            // a dead letter from another service arrives during the outage: its consumer must wait for the database too
            ProducerRecord<String, byte[]> garbage = new ProducerRecord<>(Topics.dlq(Topics.OBJECT_UPLOADED),
                    "dataset/outage-" + run + "-0/r1", "not an event".getBytes(StandardCharsets.UTF_8));
            garbage.headers().add(CloudEventHeaders.ID, ("garbage-" + run).getBytes(StandardCharsets.UTF_8));
            producer.send(garbage).get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> Files.readString(log).contains("cannot store a batch of"));
            // far longer than the lowered retries: each event would have been dead-lettered by now
            Thread.sleep(6_000);
            assertThat(total(ends(admin, Topics.dlq(Topics.OBJECT_UPLOADED))) - total(deadLettersBefore))
                    .as("while the database is cut, no event is dead-lettered (the one record there is the test's)").isEqualTo(1);
            assertThat(Files.readString(log)).contains("the database does not answer");
            assertThat(stored(stack, "'" + run + "-%'")).as("stored while cut").isEqualTo(10);

            relay.resume();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(stored(stack, "'" + run + "-%'")).isEqualTo(50));
            assertThat(stored(stack, "'dlq:" + run + "-%'")).as("no event stored as a dead letter").isZero();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                    assertThat(stored(stack, "'dlq:garbage-" + run + "'")).as("the dead letter, stored once the database answers")
                            .isEqualTo(1));
            assertThat(total(ends(admin, Topics.dlq(Topics.OBJECT_UPLOADED))) - total(deadLettersBefore))
                    .as("nothing else dead-lettered after the outage").isEqualTo(1);
            String chain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/api/audit/chain"))
                            .header("Authorization", "Bearer " + READER_TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(chain).contains("\"ok\":true");
        }
    }

    private void publish(KafkaProducer<String, byte[]> producer, int from, int count) throws Exception {
        List<Future<?>> acks = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String asset = "dataset/outage-" + run + "-" + (i % 8) + "/r1";
            ObjectUploaded event = ObjectUploaded.of(new EventMeta(run + "-" + i, 1, Instant.now(), asset, null),
                    asset, "primary", "stowage-primary", "datasets/outage-" + run + "/" + i, ObjectKind.SHARD, i,
                    "6".repeat(64), "etag-" + i, "/staging/" + run + "/" + i, false);
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.OBJECT_UPLOADED, asset, EventCodec.encode(event));
            CloudEventHeaders.of(event, "/stowage/test").forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
            acks.add(producer.send(record));
        }
        for (Future<?> ack : acks) {
            ack.get(30, TimeUnit.SECONDS);
        }
    }

    private static long stored(StackEndpoints stack, String likePattern) throws Exception {
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             PreparedStatement statement = db.prepareStatement("select count(*) from ledger_event where event_id like " + likePattern);
             ResultSet rows = statement.executeQuery()) {
            assertThat(rows.next()).isTrue();
            return rows.getLong(1);
        }
    }

    private static Map<TopicPartition, Long> ends(Admin admin, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).partitions()
                .forEach(p -> request.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(request).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    private static long total(Map<TopicPartition, Long> ends) {
        return ends.values().stream().mapToLong(Long::longValue).sum();
    }

    private static KafkaProducer<String, byte[]> producer(StackEndpoints stack) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    }

    /**
     * A TCP relay on a loopback port to the real PostgreSQL. {@link #cut()} closes the listening socket and every
     * relayed connection (the ledger's next connect is refused); {@link #resume()} listens on the same port again.
     */
    private static final class Relay implements Closeable {
        private final InetSocketAddress target;
        private final int port;
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        private volatile ServerSocket server;

        Relay(InetSocketAddress target) throws IOException {
            this.target = target;
            this.server = listen(0);
            this.port = server.getLocalPort();
        }

        int port() {
            return port;
        }

        synchronized void cut() throws IOException {
            server.close();
            for (Socket socket : open) {
                socket.close();
            }
            open.clear();
        }

        synchronized void resume() throws IOException {
            server = listen(port);
        }

        @Override
        public void close() throws IOException {
            cut();
        }

        private ServerSocket listen(int at) throws IOException {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), at));
            Thread accept = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket client = socket.accept();
                        Socket upstream = new Socket(target.getAddress(), target.getPort());
                        open.add(client);
                        open.add(upstream);
                        pump(client, upstream);
                        pump(upstream, client);
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "relay-accept");
            accept.setDaemon(true);
            accept.start();
            return socket;
        }

        private static void pump(Socket from, Socket to) {
            Thread thread = new Thread(() -> {
                byte[] buffer = new byte[16384];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException e) {
                    // cut, or the other side closed
                } finally {
                    try {
                        from.close();
                        to.close();
                    } catch (IOException ignored) {
                        // already closed
                    }
                }
            }, "relay-pump");
            thread.setDaemon(true);
            thread.start();
        }
    }
}
