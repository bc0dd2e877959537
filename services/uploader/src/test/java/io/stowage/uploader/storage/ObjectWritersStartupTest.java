package io.stowage.uploader.storage;

import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreAccessException;
import io.stowage.uploader.UploaderSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;

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
        TestStores.Store primary = new TestStores.Store(good, stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        TestStores.Store replica = new TestStores.Store(good, stack.replicaBucket(), stack.s3AccessKey(), stack.s3SecretKey());

        startFails(new TestStores.Store(URI.create("http://127.0.0.1:" + closed), stack.primaryBucket(), stack.s3AccessKey(),
                stack.s3SecretKey()), replica, "store primary (http://127.0.0.1:" + closed + ", bucket "
                + stack.primaryBucket() + "): endpoint unreachable");
        startFails(primary, new TestStores.Store(good, "absent-bucket", stack.s3AccessKey(), stack.s3SecretKey()),
                "store replica (" + good + ", bucket absent-bucket): bucket does not exist (HTTP 404)");
        startFails(new TestStores.Store(good, stack.primaryBucket(), stack.s3AccessKey(), "wrong-secret"), replica,
                "store primary (" + good + ", bucket " + stack.primaryBucket() + "): credentials refused (HTTP 403)");

        ObjectWriters writers = new ObjectWriters(new TestStores.Stores(primary, replica), settings(),
                new io.smallrye.config.SmallRyeConfigBuilder().build());
        try {
            assertThatCode(() -> writers.onStart(null)).doesNotThrowAnyException();
        } finally {
            writers.close();
        }
    }

    private void startFails(TestStores.Store primary, TestStores.Store replica, String expected) {
        ObjectWriters writers = new ObjectWriters(new TestStores.Stores(primary, replica), settings(),
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
        return TestStores.settings(state);
    }
}
