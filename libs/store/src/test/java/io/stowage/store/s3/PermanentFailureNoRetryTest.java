package io.stowage.store.s3;

import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.PermanentStoreException;
import io.stowage.store.RetryPolicy;
import io.stowage.store.RetryingObjectWriter;
import io.stowage.store.StoreConfig;
import io.stowage.store.TransientStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Against the stack's real S3Proxy, through {@link RetryingObjectWriter}: a bucket that does not exist and
 * refused credentials are permanent failures, thrown after one attempt with no wait; an endpoint that refuses
 * connections is transient and is retried with jittered waits inside their bounds.
 */
@ExtendWith(StowageStackExtension.class)
class PermanentFailureNoRetryTest {
    @TempDir
    Path dir;

    @Test
    void aMissingBucketAndRefusedCredentialsAreNotRetriedAConnectionRefusalIs(StackEndpoints stack) throws Exception {
        Path file = Files.writeString(dir.resolve("model.pt"), "abc");
        String sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        URI endpoint = URI.create(stack.s3Endpoint());

        List<Duration> waits = new ArrayList<>();
        RetryPolicy policy = new RetryPolicy(4, Duration.ofMillis(20), Duration.ofMillis(60), new SplittableRandom(1),
                waits::add);
        StoreConfig absent = new StoreConfig("replica", endpoint, stack.s3Region(), "absent-bucket",
                stack.s3AccessKey(), stack.s3SecretKey());
        try (S3ObjectStore store = new S3ObjectStore(absent, UploadTuning.defaults())) {
            assertThatThrownBy(() -> new RetryingObjectWriter(store, policy).put("k/model.pt", file, 3, sha, Map.of()))
                    .isInstanceOf(PermanentStoreException.class)
                    .hasMessage("PUT replica:absent-bucket/k/model.pt: HTTP 404 NoSuchBucket");
        }
        StoreConfig refused = new StoreConfig("primary", endpoint, stack.s3Region(), stack.primaryBucket(),
                stack.s3AccessKey(), "wrong-secret");
        try (S3ObjectStore store = new S3ObjectStore(refused, UploadTuning.defaults())) {
            assertThatThrownBy(() -> new RetryingObjectWriter(store, policy).put("k/model.pt", file, 3, sha, Map.of()))
                    .isInstanceOf(PermanentStoreException.class).hasMessageContaining("HTTP 403");
        }
        assertThat(waits).as("no wait: no retry").isEmpty();

        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        StoreConfig unreachable = new StoreConfig("primary", URI.create("http://127.0.0.1:" + closed), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        try (S3ObjectStore store = new S3ObjectStore(unreachable, UploadTuning.defaults())) {
            assertThatThrownBy(() -> new RetryingObjectWriter(store, policy).put("k/model.pt", file, 3, sha, Map.of()))
                    .isInstanceOf(TransientStoreException.class);
        }
        assertThat(waits).hasSize(3);
        assertThat(waits.get(0)).isBetween(Duration.ofMillis(10), Duration.ofMillis(20));
        assertThat(waits.get(1)).isBetween(Duration.ofMillis(20), Duration.ofMillis(40));
        assertThat(waits.get(2)).isBetween(Duration.ofMillis(30), Duration.ofMillis(60));
    }
}
