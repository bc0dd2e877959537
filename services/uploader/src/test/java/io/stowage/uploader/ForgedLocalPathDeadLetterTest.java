package io.stowage.uploader;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.Provenance;
import io.stowage.events.Topics;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.MemberEntry;
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
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static io.stowage.stack.KafkaProbe.header;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forged {@code checkpoint.published} events on the real Kafka broker and S3Proxy, each naming a file outside the
 * uploader's roots (this profile's roots: {@code java.io.tmpdir}): {@code /etc/passwd} as the step directory of a
 * well-formed manifest (with its real size and SHA-256, as an attacker could compute), {@code /etc/passwd} as the
 * manifest itself, and a symlink inside the roots that points at {@code /etc/passwd}. Each ends on
 * {@code checkpoint.published.dlq} with a reason naming the path, its one failure event says neither the file's size
 * nor its SHA-256, and nothing is stored in either bucket under the run.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ForgedLocalPathDeadLetterTest {
    private static final Path PASSWD = Path.of("/etc/passwd");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;
    @ConfigProperty(name = "stowage.store.primary.bucket")
    String primaryBucket;
    @ConfigProperty(name = "stowage.store.replica.bucket")
    String replicaBucket;

    KafkaProbe kafka;
    S3AsyncClient s3;
    Path dir;
    byte[] passwd;
    final String name = "f" + UUID.randomUUID().toString().substring(0, 8);
    final Provenance provenance = new Provenance("abc", "c".repeat(64), "d".repeat(64));

    @BeforeEach
    void open() throws Exception {
        kafka = new KafkaProbe(bootstrap);
        s3 = S3Clients.create(new StoreConfig("primary", endpoint, "us-east-1", primaryBucket, accessKey, secretKey));
        dir = Files.createTempDirectory("forged-path-test");
        passwd = Files.readAllBytes(PASSWD);
    }

    @AfterEach
    void close() {
        s3.close();
    }

    @Test
    void aStepDirectoryOfEtcIsDeadLetteredAndNothingIsStored() throws Exception {
        CheckpointPublished event = forged(1, "/etc", List.of(new MemberEntry("passwd", passwd.length, Sha256.of(passwd))));
        assertDeadLettered(event, "stepDir: local path /etc is outside the upload roots");
    }

    @Test
    void aManifestPathOfEtcPasswdIsDeadLetteredUnread() throws Exception {
        CheckpointPublished event = CheckpointPublished.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name,
                "run1", 2, dir.toString(), PASSWD.toString(), "0".repeat(64), 1, 1, true, List.of(), provenance);
        assertDeadLettered(event, "manifestPath: local path /etc/passwd is outside the upload roots");
    }

    @Test
    void aSymlinkInsideTheRootsToEtcPasswdIsDeadLettered() throws Exception {
        Path step = Files.createDirectories(dir.resolve("step-3"));
        Files.createSymbolicLink(step.resolve("model.pt"), PASSWD);
        CheckpointPublished event = forged(3, step.toString(),
                List.of(new MemberEntry("model.pt", passwd.length, Sha256.of(passwd))));
        assertDeadLettered(event, "local path " + step.resolve("model.pt")
                + " resolves through a symlink to outside the upload roots");
    }

    /** A well-formed manifest in the roots that names {@code stepDir}, so only the confinement rule stops it. */
    private CheckpointPublished forged(long step, String stepDir, List<MemberEntry> files) throws Exception {
        CheckpointManifest manifest = new CheckpointManifest(CheckpointManifest.FORMAT, name, "run1", step, stepDir,
                true, List.of(), provenance, files);
        byte[] json = EventCodec.mapper().writeValueAsBytes(manifest);
        Path manifestPath = Files.write(dir.resolve("step-" + step + ".json"), json);
        return CheckpointPublished.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name, "run1", step, stepDir,
                manifestPath.toString(), Sha256.of(json), files.size(), passwd.length, true, List.of(), provenance);
    }

    private void assertDeadLettered(CheckpointPublished event, String reason) throws Exception {
        byte[] value = EventCodec.encode(event);
        kafka.send(Topics.CHECKPOINT_PUBLISHED, event.assetId(), value);

        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.CHECKPOINT_PUBLISHED),
                r -> Arrays.equals(r.value(), value), 1).get(0);
        ObjectUploadFailed failed = EventCodec.decode(ObjectUploadFailed.class, kafka.await(Topics.OBJECT_UPLOAD_FAILED,
                r -> event.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), 1).get(0).value());

        assertThat(header(dead, CloudEventHeaders.DLQ_REASON)).isEqualTo("permanent upload failure (1 of 1 objects): "
                + failed.reason());
        assertThat(failed.reason()).contains(reason).doesNotContain(Sha256.of(passwd))
                .doesNotContainPattern("\\b" + passwd.length + " bytes");
        assertThat(failed.permanent()).isTrue();
        assertThat(failed.key()).isNull();
        String failureJson = new String(EventCodec.encode(failed), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(failureJson).doesNotContain(Sha256.of(passwd));
        assertThat(kafka.keysUpToEnd(Topics.OBJECT_UPLOADED)).doesNotContain(event.assetId());
        for (String bucket : List.of(primaryBucket, replicaBucket)) {
            List<S3Object> stored = s3.listObjectsV2(ListObjectsV2Request.builder().bucket(bucket)
                    .prefix("checkpoints/" + name + "/").build()).get().contents();
            assertThat(stored).as(bucket).isEmpty();
        }
    }
}
