package io.stowage.uploader.storage;

import io.stowage.store.StoreSettings;
import io.stowage.uploader.UploaderSettings;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Store and uploader settings for tests that build {@link ObjectWriters} by hand against the stack's S3Proxy. */
public final class TestStores {
    private TestStores() {
    }

    /**
     * @param state the state directory (multipart journals, pending steps)
     * @return one attempt without backoff, 64 MiB multipart, journals under {@code state}, stores probed at start
     */
    public static UploaderSettings settings(Path state) {
        return settings(state, List.of());
    }

    /**
     * @param state the state directory (multipart journals, pending steps)
     * @param peers the other uploader instances' state directories ({@link UploaderSettings#peerStateDirs()})
     * @return as {@link #settings(Path)}, with those peers
     */
    public static UploaderSettings settings(Path state, List<Path> peers) {
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
            public Optional<List<Path>> roots() { return Optional.empty(); }
            public Optional<List<Path>> peerStateDirs() { return peers.isEmpty() ? Optional.empty() : Optional.of(peers); }
        };
    }

    /** One store's endpoint, bucket and credentials, region {@code us-east-1}. */
    public record Store(URI endpoint, String bucket, String accessKeyId, String secretAccessKey)
            implements StoreSettings.Store {
        public String region() {
            return "us-east-1";
        }
    }

    /** The primary and replica stores. */
    public record Stores(StoreSettings.Store primary, StoreSettings.Store replica) implements StoreSettings {
    }
}
