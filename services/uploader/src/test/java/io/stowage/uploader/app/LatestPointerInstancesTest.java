package io.stowage.uploader.app;

import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.PendingStep;
import io.stowage.uploader.persistence.PendingSteps;
import io.stowage.uploader.storage.ObjectWriters;
import io.stowage.uploader.storage.TestStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static io.stowage.events.fixtures.ObjectVerifiedBuilder.objectVerified;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two uploader instances, each with its own state directory and pending steps, writing one run's latest pointer in a
 * real S3 bucket (the stack's S3Proxy): the pointer never goes back to an older step because another instance wrote a
 * newer one, and a newer step still replaces it.
 */
@ExtendWith(StowageStackExtension.class)
class LatestPointerInstancesTest {
    private static final String SHA = "a".repeat(64);
    @TempDir
    Path one;
    @TempDir
    Path two;
    private final List<ObjectWriters> writers = new ArrayList<>();
    private S3Client s3;
    private String bucket;
    private StackEndpoints stack;

    @BeforeEach
    void freshBucket(StackEndpoints stack) {
        this.stack = stack;
        s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(),
                        stack.s3SecretKey())))
                .build();
        bucket = "pointer-" + UUID.randomUUID().toString().substring(0, 8);
        s3.createBucket(b -> b.bucket(bucket));
    }

    @AfterEach
    void close() {
        writers.forEach(ObjectWriters::close);
        s3.close();
    }

    @Test
    void aStepOlderThanThePointerAnotherInstanceWroteDoesNotReplaceItANewerOneDoes() throws Exception {
        PendingSteps stepsA = new PendingSteps(one.resolve("pointers"));
        PendingSteps stepsB = new PendingSteps(two.resolve("pointers"));
        LatestPointerWork a = instance(one, stepsA);
        LatestPointerWork b = instance(two, stepsB);
        stepsA.save(step(9));
        stepsB.save(step(10));

        assertThat(b.onVerified(verified(10))).as("instance two writes step 10").isPresent();
        assertThat(storedPointer().step()).isEqualTo(10);
        assertThat(s3.headObject(h -> h.bucket(bucket).key(key())).metadata())
                .containsEntry(LatestPointerWork.STEP_METADATA, "10");

        assertThat(a.onVerified(verified(9))).as("instance one's step 9 is older than the stored pointer").isEmpty();
        assertThat(storedPointer().step()).as("the pointer never goes back").isEqualTo(10);
        assertThat(stepsA.find(step(9).assetId())).as("step 9 no longer waits").isEmpty();

        stepsA.save(step(11));
        assertThat(a.onVerified(verified(11))).isPresent();
        assertThat(storedPointer().step()).as("a newer step replaces it").isEqualTo(11);
    }

    private String key() {
        return ObjectKeys.checkpointLatest("e", "r");
    }

    private LatestCheckpoint storedPointer() throws Exception {
        return EventCodec.mapper().readValue(s3.getObjectAsBytes(g -> g.bucket(bucket).key(key())).asByteArray(),
                LatestCheckpoint.class);
    }

    private static String assetId(long step) {
        return "checkpoint/e/r/" + String.format("%012d", step);
    }

    private static PendingStep step(long step) {
        return new PendingStep(assetId(step), "e", "r", step,
                List.of(new LatestCheckpoint.File("model.pt", "checkpoints/e/r/" + step + "/model.pt", 3, SHA)), Set.of());
    }

    private static ObjectVerified verified(long step) {
        return objectVerified().meta(EventMeta.first("c", Clock.systemUTC())).assetId(assetId(step))
                .store("primary", "bucket").key("checkpoints/e/r/" + step + "/model.pt", ObjectKind.CHECKPOINT_FILE)
                .method(VerifyMethod.FULL_READ).result(VerifyResult.OK).matching(3, SHA).build();
    }

    private LatestPointerWork instance(Path state, PendingSteps steps) {
        TestStores.Store primary = new TestStores.Store(URI.create(stack.s3Endpoint()), bucket, stack.s3AccessKey(), stack.s3SecretKey());
        TestStores.Store replica = new TestStores.Store(URI.create(stack.s3Endpoint()), stack.replicaBucket(), stack.s3AccessKey(),
                stack.s3SecretKey());
        ObjectWriters w = new ObjectWriters(new TestStores.Stores(primary, replica), settings(state),
                new io.smallrye.config.SmallRyeConfigBuilder().build());
        writers.add(w);
        return new LatestPointerWork(steps, w, settings(state));
    }

    private static UploaderSettings settings(Path state) {
        return TestStores.settings(state);
    }
}
