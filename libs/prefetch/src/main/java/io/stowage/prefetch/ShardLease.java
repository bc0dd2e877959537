package io.stowage.prefetch;

import java.nio.file.Path;

/**
 * A pin on one cached shard: while it is open the cache never evicts the shard, so a training process can read the
 * file at {@link #path()} safely. Close it when done (try-with-resources); closing twice is harmless. Pins live in
 * the JVM that opened the {@link ShardCache}.
 */
public final class ShardLease implements AutoCloseable {
    private final ShardCache cache;
    private final String sha256;
    private final Path path;
    private boolean closed;

    ShardLease(ShardCache cache, String sha256, Path path) {
        this.cache = cache;
        this.sha256 = sha256;
        this.path = path;
    }

    /** @return the shard's SHA-256 (64 lower-case hex digits) */
    public String sha256() {
        return sha256;
    }

    /** @return the verified shard file, {@code DIR/shards/<sha256>.tar.zst} */
    public Path path() {
        return path;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            cache.unpin(sha256);
        }
    }
}
