package io.stowage.verifier;

import io.stowage.events.Sha256;
import io.stowage.stack.KafkaProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Topics;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.stack.StowageStackResource;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.stack.KafkaProbe.header;
import static org.assertj.core.api.Assertions.assertThat;

/** The packaged verifier against the real Kafka broker and S3Proxy of the embedded stack. */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class VerifierServiceTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;

    KafkaProbe kafka;
    S3AsyncClient s3;
    final String name = "v" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void open() {
        kafka = new KafkaProbe(bootstrap);
        s3 = S3Clients.create(new StoreConfig("primary", endpoint, "us-east-1", "stowage-primary", accessKey, secretKey));
    }

    @AfterEach
    void close() {
        s3.close();
    }

    @Test
    void aWholeObjectIsVerifiedByHeadAndByAFullRead() throws Exception {
        byte[] content = ("shard bytes of " + name).repeat(5000).getBytes(StandardCharsets.UTF_8);
        String key = "datasets/" + name + "/r1/shards/" + Sha256.of(content) + ".tar.zst";
        put(key, content, Sha256.of(content));

        ObjectUploaded uploaded = publish(key, content.length, Sha256.of(content));
        List<ConsumerRecord<String, byte[]>> records = results(uploaded, 2);

        ObjectVerified head = decode(records.get(0));
        ObjectVerified full = decode(records.get(1));
        assertThat(head.method()).isEqualTo(VerifyMethod.HEAD);
        assertThat(head.result()).isEqualTo(VerifyResult.OK);
        assertThat(head.actualSha256()).isEqualTo(Sha256.of(content));
        assertThat(full.method()).isEqualTo(VerifyMethod.FULL_READ);
        assertThat(full.result()).isEqualTo(VerifyResult.OK);
        assertThat(full.actualBytes()).isEqualTo(content.length);
        assertThat(full.actualSha256()).isEqualTo(Sha256.of(content));
        ConsumerRecord<String, byte[]> first = records.get(0);
        assertThat(first.key()).isEqualTo(uploaded.assetId());
        assertThat(header(first, CloudEventHeaders.ID)).isEqualTo(head.meta().eventId());
        assertThat(header(first, CloudEventHeaders.TYPE)).isEqualTo("io.stowage.object.verified.v1");
        assertThat(header(first, CloudEventHeaders.SUBJECT)).isEqualTo(uploaded.assetId());
        assertThat(header(first, CloudEventHeaders.SOURCE)).isEqualTo("/stowage/verifier");
    }

    @Test
    void aRecordThatIsNotAnEventGoesToTheDeadLetterTopic() throws Exception {
        byte[] garbage = ("{\"not\":\"an upload " + name + "\"}").getBytes(StandardCharsets.UTF_8);
        kafka.send(Topics.OBJECT_UPLOADED, "garbage", garbage);

        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.OBJECT_UPLOADED),
                r -> java.util.Arrays.equals(r.value(), garbage), 1).get(0);

        assertThat(header(dead, CloudEventHeaders.DLQ_REASON)).isEqualTo("meta is missing");
    }

    private void put(String key, byte[] content, String sha256Metadata) {
        s3.putObject(b -> b.bucket("stowage-primary").key(key).metadata(Map.of("sha256", sha256Metadata)),
                AsyncRequestBody.fromBytes(content)).join();
    }

    private ObjectUploaded publish(String key, long bytes, String sha256) throws Exception {
        ObjectUploaded event = ObjectUploaded.of(EventMeta.first("flow-" + name, Clock.systemUTC()),
                "dataset/" + name + "/r1", "primary", "stowage-primary", key, ObjectKind.SHARD, bytes, sha256, "etag",
                "/staging/" + name, false);
        kafka.send(Topics.OBJECT_UPLOADED, event.assetId(), EventCodec.encode(event));
        return event;
    }

    private List<ConsumerRecord<String, byte[]>> results(ObjectUploaded cause, int count) {
        return kafka.await(Topics.OBJECT_VERIFIED,
                r -> cause.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), count);
    }

    private ObjectVerified decode(ConsumerRecord<String, byte[]> record) {
        return EventCodec.decode(ObjectVerified.class, record.value());
    }
}
