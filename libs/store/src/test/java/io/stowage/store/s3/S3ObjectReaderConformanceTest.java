package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectStoreConformance;
import io.stowage.store.ObjectWriter;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import io.stowage.store.TransientStoreException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs the conformance suite with {@link S3ObjectReader} (blocking client, Apache HttpClient 5, objects above 1 MiB as
 * ranged GETs of 3 MiB + 17 bytes) reading what {@link S3ObjectStore} wrote to the stack's real S3Proxy, plus the
 * ranged-read checks on both HTTP clients.
 */
@ExtendWith(StowageStackExtension.class)
class S3ObjectReaderConformanceTest extends ObjectStoreConformance {
    private static final ReadTuning SMALL_PARTS = new ReadTuning(1 << 20, (3 << 20) + 17, 4);
    private static StoreConfig config;
    private static S3ObjectStore store;
    private static S3ObjectReader reader;

    @BeforeAll
    static void open(StackEndpoints stack) {
        config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(), stack.primaryBucket(),
                stack.s3AccessKey(), stack.s3SecretKey());
        store = new S3ObjectStore(config, new UploadTuning(8 << 20, UploadTuning.MIN_PART_SIZE, 3));
        reader = new S3ObjectReader(config, SMALL_PARTS, HttpBackend.APACHE);
    }

    @AfterAll
    static void close() {
        reader.close();
        store.close();
    }

    @Override
    protected ObjectWriter writer() {
        return store;
    }

    @Override
    protected ObjectReader reader() {
        return reader;
    }

    @ParameterizedTest
    @EnumSource(HttpBackend.class)
    void aLargeObjectIsReadAsRangedGetsHashedInOrderTheLastPartShort(HttpBackend http) throws Exception {
        byte[] content = random((40 << 20) + 4_321, 8);
        String key = prefix + "ranged-" + http + ".bin";
        store.put(key, write(content), content.length, Sha256.of(content), Map.of());
        try (S3ObjectReader ranged = new S3ObjectReader(config, SMALL_PARTS, http)) {
            assertThat(ranged.readAndHash(key)).isEqualTo(new ReadResult(content.length, Sha256.of(content)));
            assertThat(ranged.readAndHash(key)).as("part buffers reused").isEqualTo(new ReadResult(content.length,
                    Sha256.of(content)));
        }
    }

    @ParameterizedTest
    @EnumSource(HttpBackend.class)
    void aRangedReadOfAnObjectThatChangedSinceItsHeadFailsAsTransient(HttpBackend http) throws Exception {
        byte[] content = random(3 << 20, 9);
        String key = prefix + "changed-" + http + ".bin";
        store.put(key, write(content), content.length, Sha256.of(content), Map.of());
        try (S3ObjectReader r = new S3ObjectReader(config, SMALL_PARTS, http)) {
            BlockingRangedRead read = new BlockingRangedRead(clientOf(r), config.bucket(), new ReadTuning(0, 1 << 20, 2));
            assertThatThrownBy(() -> read.run(key, content.length, "etag-of-an-older-version"))
                    .isInstanceOf(TransientStoreException.class).hasMessageContaining("changed while read");
            assertThatThrownBy(() -> read.run(key, content.length - 5, store.head(key).orElseThrow().etag()))
                    .isInstanceOf(TransientStoreException.class)
                    .hasMessageContaining("changed while read (" + content.length + " bytes, was " + (content.length - 5));
            read.close();
        }
    }

    @ParameterizedTest
    @EnumSource(HttpBackend.class)
    void anEmptyObjectIsReadWithoutARangeEvenWithAZeroThresholdAndAMissingOneIsNotFound(HttpBackend http) throws Exception {
        String key = prefix + "empty-" + http + ".bin";
        store.put(key, write(new byte[0]), 0, Sha256.of(new byte[0]), Map.of());
        try (S3ObjectReader r = new S3ObjectReader(config, new ReadTuning(0, 1, 1), http)) {
            assertThat(r.readAndHash(key)).isEqualTo(new ReadResult(0, Sha256.of(new byte[0])));
            assertThat(r.head(prefix + "absent.bin")).isEmpty();
            assertThatThrownBy(() -> r.readAndHash(prefix + "absent.bin")).isInstanceOf(ObjectNotFoundException.class);
        }
    }

    private static software.amazon.awssdk.services.s3.S3Client clientOf(S3ObjectReader r) {
        return r.client();
    }
}
