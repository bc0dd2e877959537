package io.stowage.uploader.app;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
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
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.TransientStoreException;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.PendingStep;
import io.stowage.uploader.persistence.PendingSteps;
import io.stowage.uploader.storage.ForwardingWriter;
import io.stowage.uploader.storage.ObjectWriters;
import io.stowage.uploader.storage.TestStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;

import static io.stowage.events.fixtures.ObjectVerifiedBuilder.objectVerified;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two uploader instances, each with its own state directory and pending steps, writing one run's latest pointer in a
 * real S3 bucket (the stack's S3Proxy): the pointer never goes back to an older step because another instance wrote a
 * newer one, also when the other wrote it between this one's HEAD and PUT (the store refuses the conditional PUT), and a
 * newer step still replaces it. Also the other branches of the write: a store that answers conditional PUTs with 501
 * (a proxy in front of S3Proxy), a HEAD without an ETag, and a pointer that changes under every attempt.
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

    @Test
    void aNewerStepWrittenBetweenTheHeadAndThePutIsNotReplaced() throws Exception {
        PendingSteps stepsA = new PendingSteps(one.resolve("pointers"));
        PendingSteps stepsB = new PendingSteps(two.resolve("pointers"));
        LatestPointerWork b = instance(two, stepsB);
        stepsB.save(step(10));
        assertThat(b.onVerified(verified(10))).isPresent();
        stepsB.save(step(12));
        // instance one HEADs the pointer (step 10), then instance two writes step 12 before one's PUT of step 11
        List<Integer> heads = new ArrayList<>();
        LatestPointerWork a = instance(one, stepsA, () -> {
            heads.add(heads.size() + 1);
            if (heads.size() == 1) {
                assertThat(b.onVerified(verified(12))).as("instance two writes step 12 in the window").isPresent();
            }
        });
        stepsA.save(step(11));

        assertThat(a.onVerified(verified(11))).as("step 11 is refused by the store, read again, and not written")
                .isEmpty();
        assertThat(storedPointer().step()).as("the pointer never goes back").isEqualTo(12);
        assertThat(heads).as("one HEAD before the refused PUT, one after it").hasSize(2);
        assertThat(stepsA.find(step(11).assetId())).as("step 11 no longer waits").isEmpty();
        assertThat(stepsA.pointedStep("e", "r")).isEqualTo(12);

        stepsA.save(step(13));
        assertThat(a.onVerified(verified(13))).isPresent();
        assertThat(storedPointer().step()).as("a newer step still replaces it").isEqualTo(13);
    }

    @Test
    void aStoreWithoutConditionalWritesGetsThePointerUnconditionallyAndNeverAnOlderStep() throws Exception {
        // every request reaches S3Proxy through a proxy, except a conditional PUT, answered as a store that does not
        // implement the conditions answers it
        WireMockServer proxy = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1")
                .dynamicPort().preserveHostHeader(true));
        proxy.start();
        try {
            proxy.stubFor(any(anyUrl()).atPriority(10).willReturn(aResponse().proxiedFrom(stack.s3Endpoint())));
            proxy.stubFor(put(anyUrl()).atPriority(1).withHeader("If-None-Match", matching(".+"))
                    .willReturn(notImplemented()));
            proxy.stubFor(put(anyUrl()).atPriority(1).withHeader("If-Match", matching(".+"))
                    .willReturn(notImplemented()));
            PendingSteps steps = new PendingSteps(one.resolve("pointers"));
            LatestPointerWork a = instance(one, steps, URI.create("http://127.0.0.1:" + proxy.port()),
                    writer -> writer);
            steps.save(step(10));
            assertThat(a.onVerified(verified(10))).isPresent();
            assertThat(storedPointer().step()).as("written without If-None-Match").isEqualTo(10);
            steps.save(step(11));
            assertThat(a.onVerified(verified(11))).isPresent();
            assertThat(storedPointer().step()).as("written without If-Match").isEqualTo(11);
            assertThat(proxy.findAll(putRequestedFor(urlPathMatching(".*/latest\\.json"))
                    .withHeader("If-None-Match", matching(".+")))).as("the first write tried the condition").hasSize(1);
            assertThat(proxy.findAll(putRequestedFor(urlPathMatching(".*/latest\\.json"))
                    .withHeader("If-Match", matching(".+")))).as("the second too").hasSize(1);

            // the HEAD still decides: another instance's older step does not replace the pointer
            PendingSteps stepsB = new PendingSteps(two.resolve("pointers"));
            LatestPointerWork b = instance(two, stepsB, URI.create("http://127.0.0.1:" + proxy.port()),
                    writer -> writer);
            stepsB.save(step(9));
            assertThat(b.onVerified(verified(9))).isEmpty();
            assertThat(storedPointer().step()).isEqualTo(11);
        } finally {
            proxy.stop();
        }
    }

    @Test
    void aHeadWithoutAnEtagGetsAnUnconditionalPutNotAnIfNoneMatch() throws Exception {
        PendingSteps stepsB = new PendingSteps(two.resolve("pointers"));
        LatestPointerWork b = instance(two, stepsB);
        stepsB.save(step(10));
        assertThat(b.onVerified(verified(10))).isPresent();
        // a store whose HEAD answers carry no ETag: If-Match has nothing to name, and If-None-Match: * over the
        // existing pointer would be refused every time
        PendingSteps stepsA = new PendingSteps(one.resolve("pointers"));
        LatestPointerWork a = instance(one, stepsA, URI.create(stack.s3Endpoint()), writer -> new HeadHook(writer,
                () -> { }, head -> head.map(h -> new ObjectHead(h.bytes(), h.sha256(), null, h.metadata()))));
        stepsA.save(step(9));
        assertThat(a.onVerified(verified(9))).as("the stored pointer's step still decides").isEmpty();
        stepsA.save(step(11));

        assertThat(a.onVerified(verified(11))).isPresent();
        assertThat(storedPointer().step()).isEqualTo(11);
        assertThat(stepsA.find(step(11).assetId())).isEmpty();
    }

    @Test
    void aPointerChangedUnderEveryAttemptFailsAsTransientKeepsTheStepAndARedeliveryWritesIt() throws Exception {
        PendingSteps stepsB = new PendingSteps(two.resolve("pointers"));
        LatestPointerWork b = instance(two, stepsB);
        stepsB.save(step(10));
        assertThat(b.onVerified(verified(10))).isPresent();
        // after each of instance one's HEADs, the pointer is written again (other bytes, so another ETag)
        List<Integer> heads = new ArrayList<>();
        boolean[] interfere = {true};
        PendingSteps stepsA = new PendingSteps(one.resolve("pointers"));
        LatestPointerWork a = instance(one, stepsA, () -> {
            heads.add(heads.size() + 1);
            if (interfere[0]) {
                s3.putObject(p -> p.bucket(bucket).key(key()).metadata(Map.of(LatestPointerWork.STEP_METADATA, "10")),
                        RequestBody.fromString("{\"step\":10,\"rewrite\":" + heads.size() + "}"));
            }
        });
        stepsA.save(step(11));

        assertThatThrownBy(() -> a.onVerified(verified(11))).isInstanceOf(TransientStoreException.class)
                .hasMessageContaining("changed under each of " + LatestPointerWork.WRITE_ATTEMPTS);
        assertThat(heads).as("one HEAD per attempt, no more").hasSize(LatestPointerWork.WRITE_ATTEMPTS);
        assertThat(s3.headObject(h -> h.bucket(bucket).key(key())).metadata())
                .containsEntry(LatestPointerWork.STEP_METADATA, "10");
        assertThat(stepsA.find(step(11).assetId())).as("step 11 still waits for its pointer").isPresent();

        interfere[0] = false;
        assertThat(a.onVerified(verified(11))).as("the consumer's retry of the same result").isPresent();
        assertThat(storedPointer().step()).isEqualTo(11);
        assertThat(stepsA.find(step(11).assetId())).isEmpty();
    }

    private static ResponseDefinitionBuilder notImplemented() {
        return aResponse().withStatus(501).withHeader("Content-Type", "application/xml").withBody(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NotImplemented</Code><Message>A header you "
                        + "provided implies functionality that is not implemented</Message></Error>");
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
        return instance(state, steps, () -> { });
    }

    /** An instance whose every HEAD of the primary store runs {@code afterHead} once it has its answer. */
    private LatestPointerWork instance(Path state, PendingSteps steps, Runnable afterHead) {
        return instance(state, steps, URI.create(stack.s3Endpoint()), writer -> new HeadHook(writer, afterHead, h -> h));
    }

    /** An instance writing the primary store at {@code primaryEndpoint} through the writer {@code decorate} gives. */
    private LatestPointerWork instance(Path state, PendingSteps steps, URI primaryEndpoint,
                                       UnaryOperator<ObjectWriter> decorate) {
        TestStores.Store primary = new TestStores.Store(primaryEndpoint, bucket, stack.s3AccessKey(), stack.s3SecretKey());
        TestStores.Store replica = new TestStores.Store(URI.create(stack.s3Endpoint()), stack.replicaBucket(), stack.s3AccessKey(),
                stack.s3SecretKey());
        ObjectWriters w = new ObjectWriters(new TestStores.Stores(primary, replica), settings(state),
                new io.smallrye.config.SmallRyeConfigBuilder().build()) {
            @Override
            public ObjectWriter forStore(String store) {
                ObjectWriter writer = super.forStore(store);
                return "primary".equals(store) ? decorate.apply(writer) : writer;
            }
        };
        writers.add(w);
        return new LatestPointerWork(steps, w, settings(state));
    }

    /**
     * A writer that runs a hook after each HEAD (what another instance does between this one's HEAD and PUT), and gives
     * the HEAD's answer as {@code answer} maps it (what a store answers that S3Proxy does not).
     */
    private static final class HeadHook extends ForwardingWriter {
        private final Runnable afterHead;
        private final UnaryOperator<Optional<ObjectHead>> answer;

        HeadHook(ObjectWriter writer, Runnable afterHead, UnaryOperator<Optional<ObjectHead>> answer) {
            super(writer);
            this.afterHead = afterHead;
            this.answer = answer;
        }

        @Override
        public Optional<ObjectHead> head(String key) {
            Optional<ObjectHead> head = writer.head(key);
            afterHead.run();
            return answer.apply(head);
        }
    }

    private static UploaderSettings settings(Path state) {
        return TestStores.settings(state);
    }
}
