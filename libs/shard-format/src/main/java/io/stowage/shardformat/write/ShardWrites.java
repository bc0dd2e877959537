package io.stowage.shardformat.write;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes the shards of one dataset revision on several threads, one shard per thread at a time:
 * consumes the {@link ShardPlan}s, produces the {@link BuiltShard}s in plan order. Each shard is
 * written by {@link ShardWriter} exactly as in a sequential build (its bytes depend only on its
 * members), so the result is identical whatever the number of threads; each member is still read
 * once. Heap per thread is about 3 MiB (a 1 MiB copy buffer and two 1 MiB stream buffers); zstd's
 * own state is native memory.
 */
final class ShardWrites {
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final ShardWriter writer;
    private final int parallelism;

    /**
     * @param writer      writes each shard
     * @param parallelism most shards written at once, at least 1
     */
    ShardWrites(ShardWriter writer, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
        }
        this.writer = writer;
        this.parallelism = parallelism;
    }

    /**
     * @return the shards, in the order of {@code plans}
     * @throws IOException the failure of the first shard in plan order that failed (a
     *                     {@link MemberChangedException} when a file changed while read); shards not yet
     *                     started are not started, shards being written finish (and stay in staging, named
     *                     by content) before this method returns, so no write outlives the call
     */
    List<BuiltShard> writeAll(List<ShardPlan> plans, Path shardsDir) throws IOException {
        int threads = Math.min(parallelism, plans.size());
        if (threads <= 1) {
            List<BuiltShard> shards = new ArrayList<>(plans.size());
            for (ShardPlan plan : plans) {
                shards.add(writer.write(plan, shardsDir));
            }
            return shards;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, namedThreads());
        try {
            List<Future<BuiltShard>> futures = new ArrayList<>(plans.size());
            for (ShardPlan plan : plans) {
                futures.add(pool.submit(() -> writer.write(plan, shardsDir)));
            }
            List<BuiltShard> shards = new ArrayList<>(plans.size());
            for (Future<BuiltShard> future : futures) {
                shards.add(await(future, futures));
            }
            return shards;
        } finally {
            pool.shutdown();
            awaitQuietly(pool);
        }
    }

    private static BuiltShard await(Future<BuiltShard> future, List<Future<BuiltShard>> all) throws IOException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            all.forEach(f -> f.cancel(false));
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException("writing a shard failed", cause);
        } catch (InterruptedException e) {
            all.forEach(f -> f.cancel(false));
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while shards were written");
        }
    }

    /** Waits for running shard writes to finish (their temporary files are removed when they end). */
    private static void awaitQuietly(ExecutorService pool) {
        boolean interrupted = false;
        while (true) {
            try {
                if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory namedThreads() {
        int pool = POOLS.incrementAndGet();
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "shard-writer-" + pool + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
