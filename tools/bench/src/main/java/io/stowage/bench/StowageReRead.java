package io.stowage.bench;

import io.stowage.store.ObjectReader;
import io.stowage.store.ReadResult;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Stowage's full re-read: consumes an {@link InputSet} and an {@link ObjectReader}, calls
 * {@link ObjectReader#readAndHash} once per object, {@code parallelism} objects at a time (as the verifier's
 * workers would), and checks each result's bytes and SHA-256 against the ones recorded at upload.
 */
public final class StowageReRead implements Contender, AutoCloseable {
    private final ObjectReader reader;
    private final String path;
    private final int parallelism;
    private final ExecutorService workers;

    /**
     * @param reader      the store's reader, built once (a service keeps its client too)
     * @param path        the read path's short name ("netty", "apache", "urlconnection"), shown in the tool name
     * @param parallelism objects read at once, at least 1
     */
    public StowageReRead(ObjectReader reader, String path, int parallelism) {
        this.reader = reader;
        this.path = path;
        this.parallelism = parallelism;
        this.workers = Executors.newFixedThreadPool(parallelism, r -> {
            Thread t = new Thread(r, "bench-reread");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String name() {
        return "stowage readAndHash " + path + " (" + parallelism + " objects at once)";
    }

    @Override
    public double readAll(InputSet set) throws Exception {
        long cpuBefore = processCpuNanos();
        List<Future<?>> reads = new ArrayList<>(set.objects().size());
        for (BenchObject object : set.objects()) {
            reads.add(workers.submit(() -> check(object, reader.readAndHash(object.key()))));
        }
        for (Future<?> read : reads) {
            read.get();
        }
        return (processCpuNanos() - cpuBefore) / 1e9;
    }

    /** This JVM's CPU time, all threads (the SDK's event loops, the JIT and the GC included), in nanoseconds. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void check(BenchObject object, ReadResult result) {
        if (result.bytes() != object.bytes() || !result.sha256().equals(object.sha256())) {
            throw new IllegalStateException("re-read of " + object.key() + " gave " + result + ", expected "
                    + object.bytes() + " bytes with SHA-256 " + object.sha256());
        }
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
