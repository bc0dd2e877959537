package io.stowage.uploader;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Provenance;
import io.stowage.events.Sha256;
import io.stowage.events.Topics;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static io.stowage.stack.KafkaProbe.header;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A permanent store failure (the replica bucket does not exist in S3Proxy) gives exactly one
 * {@code object.upload.failed} with permanent=true and exactly one record on {@code checkpoint.published.dlq},
 * with no retry: the replica task's failure event is made within 2.5 s of the primary task's success event
 * (the tasks run one after the other; with this profile's 5 s initial backoff a single retry would wait at least
 * 2.5 s).
 */
@QuarkusTest
@TestProfile(AbsentReplicaProfile.class)
@QuarkusTestResource(StowageStackResource.class)
class PermanentFailureDeadLetterTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aMissingBucketIsOneFailureEventAndOneDeadLetterWithoutRetry() throws Exception {
        assertThat(ConfigProvider.getConfig().getValue("stowage.store.replica.bucket", String.class))
                .isEqualTo(AbsentReplicaProfile.ABSENT_BUCKET);
        KafkaProbe kafka = new KafkaProbe(bootstrap);
        String name = "p" + UUID.randomUUID().toString().substring(0, 8);
        Path dir = Files.createTempDirectory("dead-letter-test");
        Path step = Files.createDirectories(dir.resolve("step-3"));
        byte[] model = ("model of " + name).getBytes(StandardCharsets.UTF_8);
        Files.write(step.resolve("model.pt"), model);
        Provenance provenance = new Provenance("abc", "c".repeat(64), "d".repeat(64));
        List<MemberEntry> files = List.of(new MemberEntry("model.pt", model.length, Sha256.of(model)));
        CheckpointManifest manifest = new CheckpointManifest(CheckpointManifest.FORMAT, name, "run1", 3,
                step.toString(), true, List.of(), provenance, files);
        byte[] json = EventCodec.mapper().writeValueAsBytes(manifest);
        Path manifestPath = Files.write(dir.resolve("step-3.json"), json);
        CheckpointPublished event = CheckpointPublished.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name,
                "run1", 3, step.toString(), manifestPath.toString(), Sha256.of(json), 1, model.length, true, List.of(),
                provenance);
        byte[] value = EventCodec.encode(event);

        kafka.send(Topics.CHECKPOINT_PUBLISHED, event.assetId(), value);
        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.CHECKPOINT_PUBLISHED),
                r -> Arrays.equals(r.value(), value), 1).get(0);
        List<ConsumerRecord<String, byte[]>> failures = kafka.await(Topics.OBJECT_UPLOAD_FAILED,
                r -> event.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), 1);
        List<ConsumerRecord<String, byte[]>> uploads = kafka.await(Topics.OBJECT_UPLOADED,
                r -> event.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), 1);

        ObjectUploadFailed failed = EventCodec.decode(ObjectUploadFailed.class, failures.get(0).value());
        assertThat(failed.permanent()).isTrue();
        assertThat(failed.store()).isEqualTo("replica");
        assertThat(failed.reason()).contains("replica store refused", AbsentReplicaProfile.ABSENT_BUCKET, "HTTP 404",
                "NoSuchBucket").doesNotContain("\n");
        ObjectUploaded primary = EventCodec.decode(ObjectUploaded.class, uploads.get(0).value());
        assertThat(primary.store()).isEqualTo("primary");
        assertThat(header(dead, CloudEventHeaders.DLQ_REASON)).isEqualTo(
                "permanent upload failure (1 of 2 objects): " + failed.reason());
        assertThat(dead.key()).isEqualTo(event.assetId());
        assertThat(Duration.between(primary.meta().time(), failed.meta().time()))
                .as("no retry: a retry would wait at least 2.5 s").isLessThan(Duration.ofMillis(2_500));

        // exactly one of each (the dead letter is written after the failure event was acknowledged)
        assertThat(kafka.keysUpToEnd(Topics.dlq(Topics.CHECKPOINT_PUBLISHED))).filteredOn(event.assetId()::equals)
                .hasSize(1);
        assertThat(kafka.keysUpToEnd(Topics.OBJECT_UPLOAD_FAILED)).filteredOn(event.assetId()::equals).hasSize(1);
    }
}
