package io.stowage.uploader;

import io.stowage.events.Sha256;
import io.stowage.stack.KafkaProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Provenance;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.uploader.domain.PendingStep;
import io.stowage.uploader.persistence.PendingSteps;
import java.time.Duration;
import java.util.Set;
import static org.awaitility.Awaitility.await;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.stack.StowageStackResource;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static io.stowage.stack.KafkaProbe.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The packaged uploader against the real Kafka broker and S3Proxy of the embedded stack. */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class UploaderServiceTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;

    @jakarta.inject.Inject
    PendingSteps pending;

    Path dir;
    KafkaProbe kafka;
    S3AsyncClient s3;
    final String name = "t" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void open() throws Exception {
        dir = Files.createTempDirectory("uploader-test");
        kafka = new KafkaProbe(bootstrap);
        s3 = S3Clients.create(new StoreConfig("primary", endpoint, "us-east-1", "stowage-primary", accessKey, secretKey));
    }

    @AfterEach
    void close() {
        s3.close();
    }

    @Test
    void aShardAndItsMemberManifestLandAtTheirContentAddressesAndRedeliveryIsSkipped() throws Exception {
        byte[] shard = random(300_000);
        byte[] members = "{\"path\":\"a.wav\",\"bytes\":3,\"sha256\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
        ShardBuilt event = ShardBuilt.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name, "r1", 0, "/data",
                write("s0.tar.zst", shard).toString(), shard.length, Sha256.of(shard),
                write("s0.members.jsonl", members).toString(), members.length, Sha256.of(members), 1, 3);

        double before = uploadedBytes("primary");
        publish(event);
        List<ConsumerRecord<String, byte[]>> records = kafka.await(Topics.OBJECT_UPLOADED, r -> causedBy(r, event), 2);
        assertThat(uploadedBytes("primary") - before).as("bytes counted on /q/metrics")
                .isEqualTo(shard.length + members.length);

        // each object's event goes out as its own upload ends: in the order the uploads finished, not task order
        List<ObjectUploaded> both = records.stream().map(this::decodeUploaded).toList();
        ObjectUploaded shardUp = both.stream().filter(u -> u.kind() == ObjectKind.SHARD).findFirst().orElseThrow();
        ObjectUploaded membersUp = both.stream().filter(u -> u.kind() == ObjectKind.MEMBERS).findFirst().orElseThrow();
        assertThat(shardUp.key()).isEqualTo("datasets/" + name + "/r1/shards/" + Sha256.of(shard) + ".tar.zst");
        assertThat(shardUp.kind()).isEqualTo(ObjectKind.SHARD);
        assertThat(shardUp.bytes()).isEqualTo(300_000);
        assertThat(shardUp.skipped()).isFalse();
        assertThat(membersUp.key()).isEqualTo("datasets/" + name + "/r1/shards/" + Sha256.of(shard) + ".members.jsonl");
        assertThat(membersUp.sha256()).isEqualTo(Sha256.of(members));
        ConsumerRecord<String, byte[]> first = records.get(both.indexOf(shardUp));
        assertThat(first.key()).isEqualTo("dataset/" + name + "/r1");
        assertThat(header(first, CloudEventHeaders.ID)).isEqualTo(shardUp.meta().eventId());
        assertThat(header(first, CloudEventHeaders.TYPE)).isEqualTo("io.stowage.object.uploaded.v1");
        assertThat(header(first, CloudEventHeaders.SUBJECT)).isEqualTo("dataset/" + name + "/r1");
        assertThat(header(first, CloudEventHeaders.SOURCE)).isEqualTo("/stowage/uploader");
        assertThat(header(first, CloudEventHeaders.CORRELATION_ID)).isEqualTo("flow-" + name);
        assertStored("stowage-primary", shardUp.key(), shard);
        assertStored("stowage-primary", membersUp.key(), members);

        ShardBuilt again = ShardBuilt.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name, "r1", 0, "/data",
                event.shardPath(), shard.length, Sha256.of(shard), event.membersPath(), members.length,
                Sha256.of(members), 1, 3);
        publish(again);
        assertThat(kafka.await(Topics.OBJECT_UPLOADED, r -> causedBy(r, again), 2))
                .extracting(r -> decodeUploaded(r).skipped()).containsExactly(true, true);
        assertThat(uploadedBytes("primary") - before).as("a skipped object adds no bytes")
                .isEqualTo(shard.length + members.length);
    }

    /** @return {@code stowage_uploader_uploaded_bytes_total{store}} as {@code /q/metrics} answers it, 0 before any */
    static double uploadedBytes(String store) {
        String text = io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "(?m)^stowage_uploader_uploaded_bytes_total\\{[^}]*store=\"" + store + "\"[^}]*} (\\S+)$").matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    @Test
    void aKeyCheckpointLandsInBothStores() throws Exception {
        Path step = Files.createDirectories(dir.resolve("step-7"));
        byte[] model = random(120_000);
        byte[] provenance = "{\"codeCommit\":\"abc\"}".getBytes(StandardCharsets.UTF_8);
        Files.write(step.resolve("model.pt"), model);
        Files.write(step.resolve("provenance.json"), provenance);
        CheckpointPublished event = publishCheckpoint(step, true, List.of(
                new MemberEntry("model.pt", model.length, Sha256.of(model)),
                new MemberEntry("provenance.json", provenance.length, Sha256.of(provenance))));

        List<ObjectUploaded> uploaded = kafka.await(Topics.OBJECT_UPLOADED, r -> causedBy(r, event), 4).stream()
                .map(this::decodeUploaded).toList();

        String prefix = "checkpoints/" + name + "/run1/000000000007/";
        assertThat(uploaded).extracting(ObjectUploaded::store, ObjectUploaded::bucket, ObjectUploaded::key)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("primary", "stowage-primary", prefix + Sha256.of(model) + "/model.pt"),
                        org.assertj.core.groups.Tuple.tuple("primary", "stowage-primary", prefix + Sha256.of(provenance) + "/provenance.json"),
                        org.assertj.core.groups.Tuple.tuple("replica", "stowage-replica", prefix + Sha256.of(model) + "/model.pt"),
                        org.assertj.core.groups.Tuple.tuple("replica", "stowage-replica", prefix + Sha256.of(provenance) + "/provenance.json"));
        assertStored("stowage-primary", prefix + Sha256.of(model) + "/model.pt", model);
        assertStored("stowage-replica", prefix + Sha256.of(model) + "/model.pt", model);
        assertStored("stowage-replica", prefix + Sha256.of(provenance) + "/provenance.json", provenance);
    }

    @Test
    void theLatestPointerIsWrittenOnlyAfterEveryFileOfTheStepIsVerifiedOk() throws Exception {
        Path step = Files.createDirectories(dir.resolve("step-7"));
        byte[] model = random(90_000);
        byte[] optim = random(30_000);
        Files.write(step.resolve("model.pt"), model);
        Files.write(step.resolve("optim.pt"), optim);
        CheckpointPublished event = publishCheckpoint(step, false, List.of(
                new MemberEntry("model.pt", model.length, Sha256.of(model)),
                new MemberEntry("optim.pt", optim.length, Sha256.of(optim))));
        List<ObjectUploaded> uploaded = kafka.await(Topics.OBJECT_UPLOADED, r -> causedBy(r, event), 2).stream()
                .map(this::decodeUploaded).toList();
        ObjectUploaded modelUp = uploaded.stream().filter(u -> u.key().endsWith("/model.pt")).findFirst().orElseThrow();
        ObjectUploaded optimUp = uploaded.stream().filter(u -> u.key().endsWith("/optim.pt")).findFirst().orElseThrow();
        String latest = "checkpoints/" + name + "/run1/latest.json";
        assertThat(pending.find(event.assetId())).isPresent();
        assertAbsent(latest);

        // OK HEADs of both files first (same asset key, one partition: consumed before the full read after them)
        verified(modelUp, VerifyResult.OK, VerifyMethod.HEAD);
        verified(optimUp, VerifyResult.OK, VerifyMethod.HEAD);
        verified(optimUp, VerifyResult.OK);
        await().atMost(Duration.ofSeconds(30)).until(() -> !verifiedKeys(event).isEmpty());
        assertThat(verifiedKeys(event)).as("an OK HEAD is not a full read").containsExactly(optimUp.key());
        assertAbsent(latest);
        verified(optimUp, VerifyResult.MISMATCH);
        verified(modelUp, VerifyResult.OK);
        await().atMost(Duration.ofSeconds(30)).until(() -> verifiedKeys(event).equals(Set.of(modelUp.key())));
        assertAbsent(latest); // one file verified OK, the other's newest result is a mismatch

        verified(optimUp, VerifyResult.OK);
        await().atMost(Duration.ofSeconds(30)).until(() -> exists(latest));
        byte[] json = s3.getObject(b -> b.bucket("stowage-primary").key(latest), AsyncResponseTransformer.toBytes())
                .join().asByteArray();
        LatestCheckpoint pointer = EventCodec.mapper().readValue(json, LatestCheckpoint.class);
        assertThat(pointer.format()).isEqualTo(LatestCheckpoint.FORMAT);
        assertThat(pointer.step()).isEqualTo(7);
        assertThat(pointer.assetId()).isEqualTo(event.assetId());
        assertThat(pointer.files()).containsExactly(
                new LatestCheckpoint.File("model.pt", modelUp.key(), model.length, Sha256.of(model)),
                new LatestCheckpoint.File("optim.pt", optimUp.key(), optim.length, Sha256.of(optim)));
        assertThat(pending.find(event.assetId())).isEmpty();
        assertThat(pending.pointedStep(name, "run1")).isEqualTo(7);
    }

    private void verified(ObjectUploaded up, VerifyResult result) throws Exception {
        verified(up, result, VerifyMethod.FULL_READ);
    }

    private void verified(ObjectUploaded up, VerifyResult result, VerifyMethod method) throws Exception {
        ObjectVerified v = ObjectVerified.of(EventMeta.first("flow-" + name, Clock.systemUTC()), up.assetId(),
                up.store(), up.bucket(), up.key(), up.kind(), method, result, up.bytes(), up.sha256(),
                up.bytes(), result == VerifyResult.OK ? up.sha256() : "0".repeat(64),
                result == VerifyResult.OK ? null : "sha256 differs");
        publish(v);
    }

    private Set<String> verifiedKeys(CheckpointPublished event) {
        return pending.find(event.assetId()).map(PendingStep::verifiedKeys).orElse(Set.of());
    }

    private boolean exists(String key) {
        try {
            s3.headObject(b -> b.bucket("stowage-primary").key(key)).join();
            return true;
        } catch (java.util.concurrent.CompletionException e) {
            return false;
        }
    }

    private void assertAbsent(String key) {
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("stowage-primary").key(key)).join())
                .hasCauseInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void aFileChangedSincePublishIsReportedAndNeverStored() throws Exception {
        Path step = Files.createDirectories(dir.resolve("step-7"));
        byte[] published = random(50_000);
        byte[] now = published.clone();
        now[100] ^= 0x7f;
        Files.write(step.resolve("model.pt"), now);
        CheckpointPublished event = publishCheckpoint(step, false,
                List.of(new MemberEntry("model.pt", published.length, Sha256.of(published))));

        ConsumerRecord<String, byte[]> record = kafka.await(Topics.OBJECT_UPLOAD_FAILED, r -> causedBy(r, event), 1)
                .get(0);

        ObjectUploadFailed failed = EventCodec.decode(ObjectUploadFailed.class, record.value());
        assertThat(failed.permanent()).isTrue();
        assertThat(failed.reason()).contains(step.resolve("model.pt").toString(), Sha256.of(published), Sha256.of(now))
                .doesNotContain("\n");
        assertThat(header(record, CloudEventHeaders.TYPE)).isEqualTo("io.stowage.object.upload.failed.v1");
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("stowage-primary").key(failed.key())).join())
                .hasCauseInstanceOf(NoSuchKeyException.class);
        byte[] value = EventCodec.encode(event);
        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.CHECKPOINT_PUBLISHED),
                r -> java.util.Arrays.equals(r.value(), value), 1).get(0);
        assertThat(header(dead, CloudEventHeaders.DLQ_REASON))
                .isEqualTo("permanent upload failure (1 of 1 objects): " + failed.reason());
    }

    @Test
    void aRecordThatIsNotAnEventGoesToTheDeadLetterTopic() throws Exception {
        byte[] garbage = ("not an event " + name).getBytes(StandardCharsets.UTF_8);
        kafka.send(Topics.SHARD_BUILT, "garbage", garbage);

        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.SHARD_BUILT),
                r -> java.util.Arrays.equals(r.value(), garbage), 1).get(0);

        assertThat(header(dead, CloudEventHeaders.DLQ_REASON)).startsWith("not a ShardBuilt");
    }

    private CheckpointPublished publishCheckpoint(Path step, boolean key, List<MemberEntry> files) throws Exception {
        Provenance provenance = new Provenance("abc", "c".repeat(64), "d".repeat(64));
        CheckpointManifest manifest = new CheckpointManifest(CheckpointManifest.FORMAT, name, "run1", 7,
                step.toString(), key, List.of(), provenance, files);
        byte[] json = EventCodec.mapper().writeValueAsBytes(manifest);
        Path manifestPath = write("step-7.json", json);
        CheckpointPublished event = CheckpointPublished.of(EventMeta.first("flow-" + name, Clock.systemUTC()), name,
                "run1", 7, step.toString(), manifestPath.toString(), Sha256.of(json), files.size(),
                files.stream().mapToLong(MemberEntry::bytes).sum(), key, List.of(), provenance);
        publish(event);
        return event;
    }

    private void publish(StowageEvent event) throws Exception {
        kafka.send(event.topic(), event.assetId(), EventCodec.encode(event));
    }

    private static boolean causedBy(ConsumerRecord<String, byte[]> record, StowageEvent cause) {
        return cause.meta().eventId().equals(header(record, CloudEventHeaders.CAUSATION_ID));
    }

    private ObjectUploaded decodeUploaded(ConsumerRecord<String, byte[]> record) {
        return EventCodec.decode(ObjectUploaded.class, record.value());
    }

    private void assertStored(String bucket, String key, byte[] content) {
        ResponseBytes<GetObjectResponse> object = s3.getObject(b -> b.bucket(bucket).key(key),
                AsyncResponseTransformer.toBytes()).join();
        assertThat(object.asByteArray()).isEqualTo(content);
        assertThat(object.response().metadata()).containsEntry("sha256", Sha256.of(content));
    }

    private Path write(String file, byte[] content) throws Exception {
        return Files.write(dir.resolve(file), content);
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random().nextBytes(bytes);
        return bytes;
    }
}
