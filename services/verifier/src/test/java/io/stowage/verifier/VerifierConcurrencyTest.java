package io.stowage.verifier;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Sha256;
import io.stowage.events.Topics;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.stack.StowageStackResource;
import io.stowage.verifier.app.VerifyWork;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.stowage.stack.KafkaProbe.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The objects of one checkpoint step verified side by side (test profile: 4 at once) against the real Kafka broker and
 * S3Proxy: every object is HEAD-checked and re-read in full with its own result, a corrupt one among many is still a
 * MISMATCH with its own digest, a large object among them is read in full too, and more than one but never more than
 * the bound were verified at once.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class VerifierConcurrencyTest {
    private static final int FILES = 40;
    private static final int CORRUPT = 17;
    private static final int LARGE = 29;
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;
    @ConfigProperty(name = "stowage.verifier.objects-in-flight")
    int objectsInFlight;
    @Inject
    VerifyWork work;

    StoreAndTopics stack;
    final String name = "p" + UUID.randomUUID().toString().substring(0, 8);
    final String assetId = "checkpoint/" + name + "/run/000000000007";

    @BeforeEach
    void open() {
        stack = new StoreAndTopics(bootstrap, endpoint, accessKey, secretKey);
    }

    @AfterEach
    void close() {
        stack.close();
    }

    @Test
    void everyObjectOfAStepIsReReadWithItsOwnResultAndTheCorruptOneIsAMismatch() throws Exception {
        Map<String, String> expectedSha = new HashMap<>();
        Map<String, byte[]> stored = new HashMap<>();
        List<ObjectUploaded> events = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            byte[] content = random(i == LARGE ? 3 * (1 << 20) + 11 : 200_000 + i * 1_000, i);
            String sha = Sha256.of(content);
            String key = "checkpoints/" + name + "/run/000000000007/" + sha + "/shard-" + i + ".bin";
            byte[] inStore = content.clone();
            if (i == CORRUPT) {
                inStore[inStore.length / 2] ^= 0x10; // same size, same sha256 metadata: only a full read sees it
            }
            stack.put(key, inStore, sha);
            expectedSha.put(key, sha);
            stored.put(key, inStore);
            events.add(ObjectUploaded.of(EventMeta.first("flow-" + name, Clock.systemUTC()), assetId, "primary",
                    StoreAndTopics.BUCKET, key, ObjectKind.CHECKPOINT_FILE, content.length, sha, "etag",
                    "/runs/" + name + "/step-7/shard-" + i + ".bin", false));
        }
        sendTogether(events);
        Set<String> causes = events.stream().map(e -> e.meta().eventId()).collect(Collectors.toSet());

        List<ObjectVerified> results = stack.kafka.await(Topics.OBJECT_VERIFIED,
                        r -> causes.contains(header(r, CloudEventHeaders.CAUSATION_ID)), 2 * FILES).stream()
                .map(r -> EventCodec.decode(ObjectVerified.class, r.value())).toList();

        Map<String, List<ObjectVerified>> byKey = results.stream().collect(Collectors.groupingBy(ObjectVerified::key));
        assertThat(byKey).hasSize(FILES).containsOnlyKeys(expectedSha.keySet());
        for (Map.Entry<String, List<ObjectVerified>> object : byKey.entrySet()) {
            String key = object.getKey();
            boolean corrupt = key.endsWith("/shard-" + CORRUPT + ".bin");
            String actual = Sha256.of(stored.get(key));
            assertThat(object.getValue()).as(key).extracting(ObjectVerified::method, ObjectVerified::result,
                    ObjectVerified::expectedSha256, ObjectVerified::actualBytes, ObjectVerified::actualSha256)
                    .containsExactly(
                            tuple(VerifyMethod.HEAD, VerifyResult.OK, expectedSha.get(key), (long) stored.get(key).length,
                                    expectedSha.get(key)),
                            tuple(VerifyMethod.FULL_READ, corrupt ? VerifyResult.MISMATCH : VerifyResult.OK,
                                    expectedSha.get(key), (long) stored.get(key).length, actual));
        }
        assertThat(results).filteredOn(r -> r.result() != VerifyResult.OK).extracting(ObjectVerified::key)
                .containsExactly(events.get(CORRUPT).key());
        assertThat(work.peakInFlight()).as("objects verified at once").isGreaterThan(1).isLessThanOrEqualTo(objectsInFlight);
    }

    /** Sends every event through one producer, so that they reach the verifier as fast as the broker takes them. */
    private void sendTogether(List<ObjectUploaded> events) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ObjectUploaded event : events) {
                sent.add(producer.send(new ProducerRecord<>(Topics.OBJECT_UPLOADED, event.assetId(),
                        EventCodec.encode(event))));
            }
            for (Future<RecordMetadata> f : sent) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
