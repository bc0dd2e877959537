package io.stowage.uploader;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import io.stowage.events.Sha256;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

import static io.stowage.stack.KafkaProbe.header;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Defence in depth for immutable revisions, on the real Kafka broker and S3Proxy: a {@code dataset.sealed} whose
 * {@code manifest.json} key already holds another manifest is dead-lettered with the reason and the stored bytes stay
 * as they were; the same manifest again is skipped, not refused.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class SealedManifestDeadLetterTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;
    @ConfigProperty(name = "stowage.store.primary.bucket")
    String bucket;

    KafkaProbe kafka;
    S3AsyncClient s3;
    Path dir;
    final String name = "m" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void open() throws Exception {
        kafka = new KafkaProbe(bootstrap);
        s3 = S3Clients.create(new StoreConfig("primary", endpoint, "us-east-1", bucket, accessKey, secretKey));
        dir = Files.createTempDirectory("sealed-manifest-test");
    }

    @AfterEach
    void close() {
        s3.close();
    }

    @Test
    void anotherManifestForASealedRevisionIsDeadLetteredAndTheStoredOneStays() throws Exception {
        String key = ObjectKeys.datasetManifest(name, "r1");
        byte[] sealed = ("{\"sealed\":\"" + name + "\"}").getBytes(StandardCharsets.UTF_8);
        s3.putObject(b -> b.bucket(bucket).key(key).metadata(Map.of("sha256", Sha256.of(sealed), "kind", "DATASET_MANIFEST")),
                AsyncRequestBody.fromBytes(sealed)).join();
        byte[] other = ("{\"replacement\":\"" + name + "\"}").getBytes(StandardCharsets.UTF_8);
        DatasetSealed event = sealedEvent(Files.write(dir.resolve("manifest.json"), other), other);
        byte[] value = EventCodec.encode(event);

        kafka.send(Topics.DATASET_SEALED, event.assetId(), value);

        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.DATASET_SEALED),
                r -> Arrays.equals(r.value(), value), 1).get(0);
        ObjectUploadFailed failed = EventCodec.decode(ObjectUploadFailed.class, kafka.await(Topics.OBJECT_UPLOAD_FAILED,
                r -> event.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), 1).get(0).value());
        assertThat(failed.permanent()).isTrue();
        assertThat(failed.reason()).startsWith(key + " already holds another dataset manifest (sha256 " + Sha256.of(sealed));
        assertThat(header(dead, CloudEventHeaders.DLQ_REASON)).isEqualTo("permanent upload failure (1 of 1 objects): "
                + failed.reason());
        assertThat(stored(key)).isEqualTo(sealed);

        DatasetSealed same = sealedEvent(Files.write(dir.resolve("same.json"), sealed), sealed);
        kafka.send(Topics.DATASET_SEALED, same.assetId(), EventCodec.encode(same));
        ObjectUploaded skipped = EventCodec.decode(ObjectUploaded.class, kafka.await(Topics.OBJECT_UPLOADED,
                r -> same.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), 1).get(0).value());
        assertThat(skipped.skipped()).isTrue();
        assertThat(stored(key)).isEqualTo(sealed);
    }

    private DatasetSealed sealedEvent(Path manifest, byte[] bytes) {
        return DatasetSealed.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name, "r1", "/data",
                manifest.toString(), bytes.length, Sha256.of(bytes), 1, 1, 1, "CC0-1.0", null);
    }

    private byte[] stored(String key) {
        return s3.getObject(b -> b.bucket(bucket).key(key), AsyncResponseTransformer.toBytes()).join().asByteArray();
    }
}
