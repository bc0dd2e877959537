package io.stowage.uploader.storage;

import io.stowage.events.ObjectKeys;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.StorageRootManifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The storage root manifest against the stack's real S3Proxy, in a bucket of its own: put when absent and read back
 * with exactly this version's bytes, found and left alone on the next start, and a changed object stops the start
 * with one line.
 */
@ExtendWith(StowageStackExtension.class)
class StorageRootCheckTest {
    @TempDir
    Path state;
    private S3Client s3;
    private String bucket;
    private ObjectWriters writers;

    @BeforeEach
    void freshBucket(StackEndpoints stack) {
        s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey())))
                .build();
        bucket = "storage-root-" + UUID.randomUUID().toString().substring(0, 8);
        s3.createBucket(b -> b.bucket(bucket));
        TestStores.Store primary = new TestStores.Store(URI.create(stack.s3Endpoint()), bucket, stack.s3AccessKey(), stack.s3SecretKey());
        TestStores.Store replica = new TestStores.Store(URI.create(stack.s3Endpoint()), stack.replicaBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        writers = new ObjectWriters(new TestStores.Stores(primary, replica), settings(),
                new io.smallrye.config.SmallRyeConfigBuilder().build());
    }

    @AfterEach
    void close() {
        writers.close();
        s3.close();
    }

    @Test
    void absentIsPutAndReadBackByteForByteThenFoundOnTheNextStart(StackEndpoints stack) {
        StorageRootCheck check = new StorageRootCheck(writers, () -> true, settings());

        assertThat(check.run()).isEqualTo(StorageRootManifest.Action.PUT);
        byte[] stored = s3.getObjectAsBytes(b -> b.bucket(bucket).key(ObjectKeys.ROOT_MANIFEST)).asByteArray();
        assertThat(stored).isEqualTo(StorageRootManifest.bytes());
        assertThat(s3.headObject(b -> b.bucket(bucket).key(ObjectKeys.ROOT_MANIFEST)).metadata())
                .containsEntry("sha256", StorageRootManifest.sha256());
        String text = new String(stored, StandardCharsets.UTF_8);
        assertThat(text).contains("\"datasets\"", "\"checkpoints\"", "\"models\"", "\"archives\"", "\"ledger\"",
                "\"shardBytes\"", "\"verification\"", "\"retention\"")
                .doesNotContain(stack.s3AccessKey(), stack.s3SecretKey(), stack.pgPassword(), stack.s3Endpoint(), bucket);

        assertThat(check.run()).isEqualTo(StorageRootManifest.Action.MATCHES);
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(ObjectKeys.ROOT_MANIFEST)).asByteArray())
                .isEqualTo(StorageRootManifest.bytes());
    }

    @Test
    void aStoredManifestWithOtherBytesStopsTheStartWithOneLine() {
        byte[] other = "{\"format\":\"someone-else/1\"}\n".getBytes(StandardCharsets.UTF_8);
        s3.putObject(b -> b.bucket(bucket).key(ObjectKeys.ROOT_MANIFEST), RequestBody.fromBytes(other));
        StorageRootCheck check = new StorageRootCheck(writers, () -> true, settings());

        assertThatThrownBy(check::run).isInstanceOf(IllegalStateException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("storage root manifest primary:" + bucket + "/manifests/storage-root-v1.json differs")
                        .contains(other.length + " bytes", StorageRootManifest.sha256())
                        .doesNotContain("\n"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(ObjectKeys.ROOT_MANIFEST)).asByteArray())
                .as("the uploader never overwrites a manifest that differs").isEqualTo(other);
    }

    private UploaderSettings settings() {
        return TestStores.settings(state);
    }
}
