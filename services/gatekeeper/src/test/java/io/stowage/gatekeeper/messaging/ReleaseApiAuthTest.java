package io.stowage.gatekeeper.messaging;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.stowage.auth.TestTokens;
import io.stowage.events.EventCodec;
import io.stowage.events.ReleaseRefused;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /api/releases} behind bearer tokens, against the real broker: without a token, with an
 * unknown token and with a reader's token the request is refused (401, 401, 403), no {@code volume.release.requested}
 * is sent for it, and one {@code release.refused} names who and why; an operator's request is accepted (202) and
 * sent with the token's name as requestedBy.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(LedgerStub.class)
class ReleaseApiAuthTest {
    private KafkaProbe kafka;
    private String bootstrap;
    private String target;
    private Instant started;

    @BeforeEach
    void setUp() {
        bootstrap = ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
        kafka = new KafkaProbe(bootstrap);
        target = "/tmp/release-auth-" + UUID.randomUUID();
        started = Instant.now();
    }

    @Test
    void withoutATokenTheRequestIs401RecordedAndNotSent() {
        RestAssured.given().contentType(ContentType.JSON).body(Map.of("path", target, "dryRun", false))
                .post("/api/releases").then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"stowage\"");

        ReleaseRefused refused = awaitRefusal("missing-token");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.service()).isEqualTo("gatekeeper");
        assertThat(refused.method()).isEqualTo("POST");
        assertThat(refused.path()).isEqualTo("/api/releases");
        assertThat(refused.tokenName()).isNull();
        assertThat(refused.remote()).startsWith("127.0.0.1:");
        assertThat(requestsFor(target)).isEmpty();
    }

    @Test
    void anUnknownTokenIs401RecordedWithoutTheTokenAndNotSent() {
        String wrong = "wrong-token-" + UUID.randomUUID();
        RestAssured.given().auth().oauth2(wrong).contentType(ContentType.JSON).body(Map.of("path", target))
                .post("/api/releases").then().statusCode(401);

        ConsumerRecord<String, byte[]> record = awaitRefusalRecord("unknown-token");
        ReleaseRefused refused = EventCodec.decode(ReleaseRefused.class, record.value());
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.tokenName()).isNull();
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).doesNotContain(wrong)
                .doesNotContain(io.stowage.auth.TokenTable.sha256Hex(wrong));
        assertThat(requestsFor(target)).isEmpty();
    }

    @Test
    void aReaderIs403RecordedWithItsNameAndNotSent() {
        TestTokens.givenReader().contentType(ContentType.JSON).body(Map.of("path", target)).post("/api/releases")
                .then().statusCode(403);

        ConsumerRecord<String, byte[]> record = awaitRefusalRecord("insufficient-role");
        ReleaseRefused refused = EventCodec.decode(ReleaseRefused.class, record.value());
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.tokenName()).isEqualTo("test-reader");
        assertThat(refused.tokenRole()).isEqualTo("reader");
        assertThat(record.key()).isEqualTo("release/" + refused.refusalId());
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).doesNotContain(TestTokens.READER);
        assertThat(requestsFor(target)).isEmpty();
    }

    @Test
    void anOperatorsRequestIsAcceptedAndSentInItsName() {
        String requestId = TestTokens.given().contentType(ContentType.JSON).body(Map.of("path", target, "dryRun", true))
                .post("/api/releases").then().statusCode(202).extract().jsonPath().getString("requestId");

        ReleaseRequested request = EventCodec.decode(ReleaseRequested.class,
                kafka.await(Topics.VOLUME_RELEASE_REQUESTED, "release/" + requestId).value());
        assertThat(request.path()).isEqualTo(target);
        assertThat(request.dryRun()).isTrue();
        assertThat(request.requestedBy()).isEqualTo("test-operator");
        assertThat(request.meta().correlationId()).isEqualTo(requestId);
        TestTokens.given().contentType(ContentType.JSON).body(Map.of("path", "relative/dir")).post("/api/releases")
                .then().statusCode(400);
    }

    private ReleaseRefused awaitRefusal(String reason) {
        return EventCodec.decode(ReleaseRefused.class, awaitRefusalRecord(reason).value());
    }

    private ConsumerRecord<String, byte[]> awaitRefusalRecord(String reason) {
        return kafka.await(Topics.RELEASE_REFUSED, r -> {
            ReleaseRefused e = EventCodec.decode(ReleaseRefused.class, r.value());
            return e.reason().equals(reason) && !e.meta().time().isBefore(started.minusSeconds(1));
        }, 1).get(0);
    }

    /** Every volume.release.requested for {@code path}, read up to the topic's end offsets at the time of the call. */
    private List<ReleaseRequested> requestsFor(String path) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ReleaseRequested> found = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.VOLUME_RELEASE_REQUESTED).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Instant deadline = Instant.now().plusSeconds(30);
            while (!partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
                assertThat(Instant.now()).as("reached the end of the topic").isBefore(deadline);
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    try {
                        ReleaseRequested request = EventCodec.decode(ReleaseRequested.class, r.value());
                        if (request.path().equals(path)) {
                            found.add(request);
                        }
                    } catch (io.stowage.events.InvalidEventException e) {
                        // another test's deliberately undecodable record (it went to the dead-letter topic)
                    }
                }
            }
        }
        return found;
    }
}
