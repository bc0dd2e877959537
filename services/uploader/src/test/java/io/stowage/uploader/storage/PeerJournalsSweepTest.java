package io.stowage.uploader.storage;

import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The uploader's sweep of abandoned multipart uploads, as one of two instances, against the stack's real S3Proxy: the
 * other instance's journals ({@code peer-state-dirs}) are read before anything is aborted, and a peer whose journals
 * cannot be read stops the pass before it aborts anything (the same pass without peers aborts the upload).
 */
@ExtendWith(StowageStackExtension.class)
class PeerJournalsSweepTest {
    @TempDir
    Path home;

    @Test
    void aPeersUnreadableJournalsStopTheSweepAndWithoutPeersTheSameUploadIsAborted(StackEndpoints stack)
            throws Exception {
        URI endpoint = URI.create(stack.s3Endpoint());
        TestStores.Stores stores = new TestStores.Stores(
                new TestStores.Store(endpoint, stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()),
                new TestStores.Store(endpoint, stack.replicaBucket(), stack.s3AccessKey(), stack.s3SecretKey()));
        Path peer = home.resolve("uploader-2");
        Files.createDirectories(peer.resolve("journals").resolve("primary").resolve("x.journal")); // unreadable
        try (S3Client raw = S3Client.builder().endpointOverride(endpoint).region(Region.of(stack.s3Region()))
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey()))).build()) {
            String key = "sweep/" + UUID.randomUUID() + ".bin";
            String id = raw.createMultipartUpload(b -> b.bucket(stack.primaryBucket()).key(key)).uploadId();
            Thread.sleep(1_100); // initiated strictly before the sweep's cutoff (S3 times are in seconds)

            ObjectWriters withPeer = new ObjectWriters(stores, TestStores.settings(home.resolve("uploader"),
                    List.of(peer)), new io.smallrye.config.SmallRyeConfigBuilder().build());
            try {
                assertThatThrownBy(() -> withPeer.forStore("primary").abortUploadsOlderThan(Duration.ZERO))
                        .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining(peer.toString());
            } finally {
                withPeer.close();
            }
            assertThat(ids(raw, stack.primaryBucket(), key)).containsExactly(id);

            ObjectWriters alone = new ObjectWriters(stores, TestStores.settings(home.resolve("uploader")),
                    new io.smallrye.config.SmallRyeConfigBuilder().build());
            try {
                assertThat(alone.forStore("primary").abortUploadsOlderThan(Duration.ZERO)).isGreaterThanOrEqualTo(1);
            } finally {
                alone.close();
            }
            assertThat(ids(raw, stack.primaryBucket(), key)).isEmpty();
        }
    }

    private static List<String> ids(S3Client raw, String bucket, String key) {
        return raw.listMultipartUploads(b -> b.bucket(bucket).prefix(key)).uploads().stream()
                .map(MultipartUpload::uploadId).toList();
    }
}
