package io.stowage.store.s3;

import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectStoreConformance;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PermanentStoreException;
import io.stowage.store.Sha256;
import io.stowage.store.StoreConfig;
import io.stowage.store.TransientStoreException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.net.URI;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs the conformance suite against the stack's real S3Proxy, plus what only S3 can show. */
@ExtendWith(StowageStackExtension.class)
class S3ObjectStoreConformanceTest extends ObjectStoreConformance {
    private StoreConfig config;
    private S3ObjectStore store;
    private S3AsyncClient raw;

    @BeforeEach
    void open(StackEndpoints stack) {
        config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(), stack.primaryBucket(),
                stack.s3AccessKey(), stack.s3SecretKey());
        store = new S3ObjectStore(config, new UploadTuning(8 << 20, UploadTuning.MIN_PART_SIZE, 3));
        raw = S3Clients.create(config);
    }

    @AfterEach
    void close() {
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
