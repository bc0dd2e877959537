package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectStoreConformance;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PermanentStoreException;
import io.stowage.store.StoreConfig;
import io.stowage.store.TransientStoreException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import io.stowage.store.ReadResult;

import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs the conformance suite against the stack's real S3Proxy, plus what only S3 can show. */
@ExtendWith(StowageStackExtension.class)
class S3ObjectStoreConformanceTest extends ObjectStoreConformance {
    // one set of clients per class: closing a client waits about 2 s for its Netty event loops
    private static StoreConfig config;
    private static S3ObjectStore store;
    private static S3AsyncClient raw;

    @BeforeAll
    static void open(StackEndpoints stack) {
        config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(), stack.primaryBucket(),
                stack.s3AccessKey(), stack.s3SecretKey());
        store = new S3ObjectStore(config, new UploadTuning(8 << 20, UploadTuning.MIN_PART_SIZE, 3));
        raw = S3Clients.create(config);
    }

    @AfterAll
    static void close() {
        store.close();
        raw.close();
    }

    @Override
    protected ObjectWriter writer() {
        return store;
    }

    @Override
    protected ObjectReader reader() {
        return store;
    }

    @Test
    void aLargeObjectIsReadAsRangedGetsHashedInOrder() throws Exception {
        byte[] content = random((40 << 20) + 4_321, 8);
        Path file = write(content);
        String key = prefix + "ranged.bin";
        store.put(key, file, content.length, Sha256.of(file), Map.of());
        ReadTuning small = new ReadTuning(1 << 20, (3 << 20) + 17, 4); // 14 parts, the last one short

        try (S3ObjectStore ranged = new S3ObjectStore(config, UploadTuning.defaults(), small)) {
            assertThat(ranged.readAndHash(key)).isEqualTo(new ReadResult(content.length, Sha256.of(file)));
        }
        String etag = store.head(key).orElseThrow().etag();
        assertThat(new RangedRead(raw, config.bucket(), small).run(key, content.length, etag))
                .isEqualTo(new ReadResult(content.length, Sha256.of(content)));
    }

    @Test
    void aRangedReadOfAnObjectThatChangedSinceItsHeadFailsAsTransient() throws Exception {
        byte[] content = random(3 << 20, 9);
        String key = prefix + "changed-while-read.bin";
        store.put(key, write(content), content.length, Sha256.of(content), Map.of());
        RangedRead read = new RangedRead(raw, config.bucket(), new ReadTuning(0, 1 << 20, 2));

        assertThatThrownBy(() -> read.run(key, content.length, "etag-of-an-older-version"))
                .isInstanceOf(TransientStoreException.class).hasMessageContaining("changed while read");
        assertThatThrownBy(() -> read.run(key, content.length - 5, store.head(key).orElseThrow().etag()))
                .isInstanceOf(TransientStoreException.class)
                .hasMessageContaining("changed while read (" + content.length + " bytes, was " + (content.length - 5));
    }

    @Test
    void anEmptyObjectIsReadWithoutARangeEvenWithAZeroThreshold() throws Exception {
        String key = prefix + "empty-ranged.bin";
        raw.putObject(b -> b.bucket(config.bucket()).key(key), AsyncRequestBody.fromBytes(new byte[0])).join();
        try (S3ObjectStore ranged = new S3ObjectStore(config, UploadTuning.defaults(), new ReadTuning(0, 1, 1))) {
            assertThat(ranged.readAndHash(key)).isEqualTo(new ReadResult(0, Sha256.of(new byte[0])));
        }
    }

    @Test
    void aConditionalPutWritesOnlyOverWhatTheWriterSaw() throws Exception {
        String key = prefix + "conditional.json";
        byte[] first = "{\"step\":10}".getBytes();
        byte[] second = "{\"step\":11}".getBytes();
        byte[] third = "{\"step\":12}".getBytes();

        store.putIfUnchanged(key, write(first), first.length, Sha256.of(first), Map.of("step", "10"), null);
        String etag10 = store.head(key).orElseThrow().etag();
        assertThatThrownBy(() -> store.putIfUnchanged(key, write(second), second.length, Sha256.of(second),
                Map.of("step", "11"), null)).as("If-None-Match: * over an object")
                .isInstanceOf(io.stowage.store.PreconditionFailedException.class).hasMessageContaining("HTTP 412");

        store.putIfUnchanged(key, write(second), second.length, Sha256.of(second), Map.of("step", "11"), etag10);
        assertThat(store.head(key).orElseThrow().metadata()).containsEntry("step", "11");

        // a writer that saw step 10 is refused now that the key holds step 11, and step 11 stays
        assertThatThrownBy(() -> store.putIfUnchanged(key, write(third), third.length, Sha256.of(third),
                Map.of("step", "12"), etag10)).as("If-Match the ETag of an object since replaced")
                .isInstanceOf(io.stowage.store.PreconditionFailedException.class);
        assertThat(store.head(key).orElseThrow().metadata()).containsEntry("step", "11");
        assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(second.length, Sha256.of(second)));

        // a writer that saw an object that is gone now is refused too, and writes nothing
        String gone = prefix + "conditional-gone.json";
        assertThatThrownBy(() -> store.putIfUnchanged(gone, write(third), third.length, Sha256.of(third),
                Map.of("step", "12"), etag10)).as("If-Match on a key without an object")
                .isInstanceOf(io.stowage.store.PreconditionFailedException.class);
        assertThat(store.head(gone)).isEmpty();
    }

    @Test
    void extraMetadataTravelsAsUserMetadataNextToSha256() throws Exception {
        byte[] content = random(2_000, 6);
        String key = prefix + "meta.bin";
        store.put(key, write(content), content.length, Sha256.of(content), Map.of("kind", "SHARD"));

        HeadObjectResponse head = raw.headObject(b -> b.bucket(config.bucket()).key(key)).join();
        assertThat(head.metadata()).containsEntry("sha256", Sha256.of(content)).containsEntry("kind", "SHARD");
    }

    @Test
    void theServerRefusesABodyThatDoesNotMatchItsSha256Checksum() {
        String key = prefix + "bad-checksum.bin";
        String wrong = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(Sha256.of(new byte[]{1})));
        assertThatThrownBy(() -> raw.putObject(b -> b.bucket(config.bucket()).key(key).checksumSHA256(wrong),
                AsyncRequestBody.fromBytes(new byte[]{2})).join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(S3Exception.class);
        assertThat(store.head(key)).isEmpty();
    }

    @Test
    void abortsALeftoverMultipartUploadOfTheKeyOnly() {
        String key = prefix + "leftover.bin";
        raw.createMultipartUpload(b -> b.bucket(config.bucket()).key(key)).join();
        raw.createMultipartUpload(b -> b.bucket(config.bucket()).key(key + ".other")).join();
        assertThat(store.abortIncompleteUploads(key)).isEqualTo(1);
        assertThat(store.abortIncompleteUploads(key)).isZero();
        assertThat(store.abortIncompleteUploads(key + ".other")).isEqualTo(1);
    }

    @Test
    void anUnreachableStoreIsTransientAndWrongCredentialsArePermanent() {
        StoreConfig closedPort = new StoreConfig("primary", URI.create("http://127.0.0.1:1"), "us-east-1", "b",
                "id", "secret");
        try (S3ObjectStore unreachable = new S3ObjectStore(closedPort, UploadTuning.defaults())) {
            assertThatThrownBy(() -> unreachable.head("k")).isInstanceOf(TransientStoreException.class);
        }
        StoreConfig badKey = new StoreConfig("primary", config.endpoint(), config.region(), config.bucket(),
                config.accessKeyId(), "not-the-secret");
        try (S3ObjectStore refused = new S3ObjectStore(badKey, UploadTuning.defaults())) {
            assertThatThrownBy(() -> refused.readAndHash(prefix + "x")).isInstanceOf(PermanentStoreException.class)
                    .hasMessageContaining("403");
        }
    }
}
