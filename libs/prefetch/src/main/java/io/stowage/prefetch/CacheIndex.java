package io.stowage.prefetch;

import io.stowage.events.Sha256;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cache's recency record: one line {@code <shard sha256> <use number>} per cached shard in
 * {@code DIR/.stowage-cache/recency.tsv}. A use number comes from a counter that only grows, so the order survives
 * restarts and does not depend on file times (which {@code noatime} mounts and 1-second clocks make useless).
 * Each change rewrites the file through a temporary name, fsync and an atomic rename. Not thread-safe: the
 * {@link ShardCache} calls it under its own lock.
 */
final class CacheIndex {
    private final Path file;
    private final Map<String, Long> uses = new HashMap<>();
    private long counter;

    private CacheIndex(Path file) {
        this.file = file;
    }

    /** Reads {@code file} when it exists; a line that does not parse is dropped (its shard then counts as oldest). */
    static CacheIndex load(Path file) throws IOException {
        CacheIndex index = new CacheIndex(file);
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                String[] parts = line.split("\t");
                if (parts.length == 2 && Sha256.isHex(parts[0]) && parts[1].matches("[0-9]{1,18}")) {
                    long use = Long.parseLong(parts[1]);
                    index.uses.put(parts[0], use);
                    index.counter = Math.max(index.counter, use);
                }
            }
        }
        return index;
    }

    /** Marks {@code sha256} as the most recently used shard and persists the index. */
    void touch(String sha256) throws IOException {
        uses.put(sha256, ++counter);
        save();
    }

    /** Forgets {@code sha256} (evicted) and persists the index. */
    void remove(String sha256) throws IOException {
        if (uses.remove(sha256) != null) {
            save();
        }
    }

    /** Keeps only the shards in {@code present} (files found on disk); a present shard without a line gets use 0. */
    void retainOnly(java.util.Set<String> present) throws IOException {
        boolean changed = uses.keySet().retainAll(present);
        for (String sha : present) {
            changed |= uses.putIfAbsent(sha, 0L) == null;
        }
        if (changed) {
            save();
        }
    }

    /** @return the cached shards' SHA-256s, least recently used first (ties by SHA-256, so the order is total) */
    List<String> leastRecentFirst() {
        return uses.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).toList();
    }

    private void save() throws IOException {
        StringBuilder text = new StringBuilder();
        uses.entrySet().stream().sorted(Comparator.comparing(Map.Entry::getKey))
                .forEach(e -> text.append(e.getKey()).append('\t').append(e.getValue()).append('\n'));
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII)));
            out.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
