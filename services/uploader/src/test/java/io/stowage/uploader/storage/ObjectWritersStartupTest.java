package io.stowage.uploader.storage;

import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreAccessException;
import io.stowage.store.StoreSettings;
import io.stowage.uploader.UploaderSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The uploader's start-up probe against the stack's real S3Proxy: a wrong endpoint, a missing bucket and refused
 * credentials each stop the start with one line naming the store; the right settings start.
 */
@ExtendWith(StowageStackExtension.class)
class ObjectWritersStartupTest {
    @TempDir
    Path state;

    @Test
    void eachMisconfigurationStopsTheStartWithOneLine(StackEndpoints stack) throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        URI good = URI.create(stack.s3Endpoint());
        Store primary = new Store(good, stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        Store replica = new Store(good, stack.replicaBucket(), stack.s3AccessKey(), stack.s3SecretKey());

        startFails(new Store(URI.create("http://127.0.0.1:" + closed), stack.primaryBucket(), stack.s3AccessKey(),
                stack.s3SecretKey()), replica, "store primary (http://127.0.0.1:" + closed + ", bucket "
                + stack.primaryBucket() + "): endpoint unreachable");
        startFails(primary, new Store(good, "absent-bucket", stack.s3AccessKey(), stack.s3SecretKey()),
                "store replica (" + good + ", bucket absent-bucket): bucket does not exist (HTTP 404)");
        startFails(new Store(good, stack.primaryBucket(), stack.s3AccessKey(), "wrong-secret"), replica,
                "store primary (" + good + ", bucket " + stack.primaryBucket() + "): credentials refused (HTTP 403)");

        ObjectWriters writers = new ObjectWriters(new Stores(primary, replica), settings(),
                new io.smallrye.config.SmallRyeConfigBuilder().build());
        try {
            assertThatCode(() -> writers.onStart(null)).doesNotThrowAnyException();
        } finally {
            writers.close();
        }
    }

    private void startFails(Store primary, Store replica, String expected) {
        ObjectWriters writers = new ObjectWriters(new Stores(primary, replica), settings(),
                new io.smallrye.config.SmallRyeConfigBuilder().build());
        try {
            assertThatThrownBy(() -> writers.onStart(null)).isInstanceOf(StoreAccessException.class)
                    .satisfies(e -> assertThat(e.getMessage()).startsWith(expected).doesNotContain("\n")
                            .doesNotContain("wrong-secret"));
        } finally {
            writers.close();
        }
    }

    private UploaderSettings settings() {
        return new UploaderSettings() {
            public int retryAttempts() { return 1; }
            public Duration retryInitialBackoff() { return Duration.ZERO; }
            public Duration retryMaxBackoff() { return Duration.ZERO; }
            public long multipartThreshold() { return 64L << 20; }
            public int partSize() { return 64 << 20; }
            public int partsInFlight() { return 4; }
            public int filesInFlight() { return 8; }
            public Path stateDir() { return state; }
            public Duration abandonUploadsAfter() { return Duration.ofHours(24); }
            public Duration abandonedUploadSweep() { return Duration.ofHours(1); }
            public boolean probeStores() { return true; }
            public java.util.Optional<java.util.List<Path>> roots() { return java.util.Optional.empty(); }
        };
    }

    private record Store(URI endpoint, String bucket, String accessKeyId, String secretAccessKey)
            implements StoreSettings.Store {
        public String region() {
            return "us-east-1";
        }
    }

    private record Stores(StoreSettings.Store primary, StoreSettings.Store replica) implements StoreSettings {
    }
}
