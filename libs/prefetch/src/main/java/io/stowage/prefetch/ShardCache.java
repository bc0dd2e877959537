package io.stowage.prefetch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A size-bounded directory of verified shards on a hot volume, evicting the least recently used shard that is not
 * pinned. Layout: {@code DIR/shards/<sha256>.tar.zst} (only verified, fsynced shards ever get this name),
 * {@code DIR/.stowage-cache/partial/} (downloads in progress, emptied on open), {@code DIR/.stowage-cache/recency.tsv}
 * ({@link CacheIndex}) and {@code DIR/.stowage-cache/lock} (an OS file lock: one process per cache directory).
 * Thread-safe; the byte limit counts shard files only, in bytes.
 */
public final class ShardCache implements AutoCloseable {
    private static final String SUFFIX = ".tar.zst";
    private final Path shards;
    private final Path partial;
    private final long limitBytes;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final CacheIndex index;
    private final Map<String, Long> sizes = new HashMap<>();
    private final Map<String, Integer> pins = new HashMap<>();
    private long usedBytes;
    private long reservedBytes;

    private ShardCache(Path dir, long limitBytes, FileChannel lockChannel, FileLock lock) throws IOException {
        this.shards = dir.resolve("shards");
        this.partial = dir.resolve(".stowage-cache").resolve("partial");
        this.limitBytes = limitBytes;
        this.lockChannel = lockChannel;
        this.lock = lock;
        Files.createDirectories(shards);
        Files.createDirectories(partial);
        try (Stream<Path> stale = Files.list(partial)) {
            for (Path file : stale.toList()) {
                Files.deleteIfExists(file); // a download a killed process left behind: never trusted, never resumed
            }
        }
        try (Stream<Path> files = Files.list(shards)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(SUFFIX) && name.length() == 64 + SUFFIX.length()) {
                    sizes.put(name.substring(0, 64), Files.size(file));
                }
            }
        }
        usedBytes = sizes.values().stream().mapToLong(Long::longValue).sum();
        index = CacheIndex.load(dir.resolve(".stowage-cache").resolve("recency.tsv"));
        index.retainOnly(sizes.keySet());
    }

    /**
     * Opens (creating when missing) the cache at {@code dir}.
     *
     * @param limitBytes the most bytes of shard files kept; must be positive
     * @throws IOException when the directory cannot be created or read
     * @throws IllegalStateException when another process holds the cache's lock
     */
    public static ShardCache open(Path dir, long limitBytes) throws IOException {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("cache limit must be a positive number of bytes, not " + limitBytes);
        }
        Path meta = dir.toAbsolutePath().normalize().resolve(".stowage-cache");
        Files.createDirectories(meta);
        FileChannel channel = FileChannel.open(meta.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock == null) {
            channel.close();
            throw new IllegalStateException("the cache " + dir + " is in use by another process");
        }
        try {
            return new ShardCache(dir.toAbsolutePath().normalize(), limitBytes, channel, lock);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** @return the byte limit given at {@link #open} */
    public long limitBytes() {
        return limitBytes;
    }

    /** @return bytes of shard files in the cache now */
    public synchronized long usedBytes() {
        return usedBytes;
    }

    /** @return where the verified shard with this SHA-256 lives (whether or not it is there) */
    public Path shardPath(String sha256) {
        return shards.resolve(sha256 + SUFFIX);
    }

    /** @return true when the verified shard is cached with exactly {@code bytes} bytes */
    public synchronized boolean contains(String sha256, long bytes) {
        Long size = sizes.get(sha256);
        return size != null && size == bytes;
    }

    /** @return the cached shards' SHA-256s, least recently used first (the eviction order) */
    public synchronized List<String> leastRecentFirst() {
        return index.leastRecentFirst();
    }

    /**
     * Pins a cached shard and marks it most recently used.
     *
     * @throws IllegalStateException when the shard is not cached
     */
    public synchronized ShardLease pin(String sha256) {
        if (!sizes.containsKey(sha256)) {
            throw new IllegalStateException("shard " + sha256 + " is not in the cache");
        }
        pins.merge(sha256, 1, Integer::sum);
        touch(sha256);
        return new ShardLease(this, sha256, shardPath(sha256));
    }

    synchronized void unpin(String sha256) {
        pins.computeIfPresent(sha256, (k, n) -> n == 1 ? null : n - 1);
    }

    /** @return true while at least one lease on the shard is open */
    public synchronized boolean pinned(String sha256) {
        return pins.containsKey(sha256);
    }

    /**
     * Makes room for {@code bytes} more bytes, evicting least recently used shards that are neither pinned nor in
     * {@code keep}, and reserves them until {@link #release}.
     *
     * @throws CacheFullException when not enough can be evicted (nothing more is evicted then)
     */
    synchronized void reserve(long bytes, Set<String> keep) {
        long need = usedBytes + reservedBytes + bytes - limitBytes;
        List<String> victims = new java.util.ArrayList<>();
        for (String sha : index.leastRecentFirst()) {
            if (need <= 0) {
                break;
            }
            if (!pins.containsKey(sha) && !keep.contains(sha)) {
                victims.add(sha);
                need -= sizes.get(sha);
            }
        }
        if (need > 0) {
            throw new CacheFullException("cannot make room for " + bytes + " bytes within the cache limit of "
                    + limitBytes + " bytes (" + usedBytes + " cached, " + reservedBytes + " being downloaded, "
                    + pins.size() + " shard(s) pinned)");
        }
        victims.forEach(this::evict);
        reservedBytes += bytes;
    }

    /** Gives back a reservation once its download was committed or failed. */
    synchronized void release(long bytes) {
        reservedBytes -= bytes;
    }

    /** @return a new file name under {@code partial/} for a download of this shard */
    Path newPartialFile(String sha256, int attempt) {
        return partial.resolve(sha256 + "." + attempt + "." + Thread.currentThread().getId() + ".part");
    }

    /**
     * Renames a verified, fsynced download to its final name, fsyncs the directory and marks it most recently used.
     * The caller then gives back its reservation with {@link #release} (until then both count).
     */
    synchronized void commit(Path verifiedTemp, String sha256, long bytes) throws IOException {
        Files.move(verifiedTemp, shardPath(sha256), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(shards, StandardOpenOption.READ)) {
            dir.force(true);
        }
        Long previous = sizes.put(sha256, bytes);
        usedBytes += bytes - (previous == null ? 0 : previous);
        touch(sha256);
    }

    private void evict(String sha256) {
        try {
            Files.deleteIfExists(shardPath(sha256));
            index.remove(sha256);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot evict shard " + sha256 + ": " + e.getMessage(), e);
        }
        usedBytes -= sizes.remove(sha256);
    }

    private void touch(String sha256) {
        try {
            index.touch(sha256);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the use of shard " + sha256 + ": " + e.getMessage(), e);
        }
    }

    /** @return SHA-256s of every cached shard */
    public synchronized Set<String> cached() {
        return new HashSet<>(sizes.keySet());
    }

    /** Releases the directory lock. Leases still open lose their meaning. */
    @Override
    public void close() throws IOException {
        lock.release();
        lockChannel.close();
    }
}
