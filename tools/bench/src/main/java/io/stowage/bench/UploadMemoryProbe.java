package io.stowage.bench;

import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.PutResult;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import io.stowage.store.UploadObserver;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The upload's memory check, Stowage only: starts an {@link EmbeddedStack} (S3Proxy is a child process, so it
 * is not counted), writes one random file ({@code -Dstowage.bench.upload-bytes}, default 1 GiB), uploads it
 * once with {@link S3ObjectStore#put} exactly as the uploader does (64 MiB parts, 4 in flight, journal
 * fsynced per part), sampling this JVM's resident set ({@code VmRSS}, every 100 ms) while it runs, then
 * reads the object back and checks its SHA-256. Prints the upload time and MiB/s, the largest sampled
 * resident set during the upload, the peak ({@code VmHWM}) at its end and the heap limit (before the
 * read-back, whose ranged GETs have their own buffers). Run it with a bounded heap, e.g. {@code -Xmx256m};
 * a wrong object or an {@code OutOfMemoryError} fails it.
 */
public final class UploadMemoryProbe {
    private static final PrintStream OUT = System.out;
    private static final long MIB = 1 << 20;

    private UploadMemoryProbe() {
    }

    /** @throws Exception when the stack, the upload or the read-back check fails */
    public static void main(String[] args) throws Exception {
        long bytes = Long.getLong("stowage.bench.upload-bytes", 1L << 30);
        Path work = Files.createTempDirectory("stowage-upload-memory");
        OUT.println("## Machine\n" + MachineInfo.describe(BenchOptions.fromSystemProperties()));
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rss-sampler");
            t.setDaemon(true);
            return t;
        });
        try (EmbeddedStack stack = EmbeddedStack.start(work.resolve("stack"))) {
            StackEndpoints ep = stack.endpoints();
            StoreConfig config = new StoreConfig("primary", URI.create(ep.s3Endpoint()), ep.s3Region(),
                    ep.primaryBucket(), ep.s3AccessKey(), ep.s3SecretKey());
            BenchObject file = RandomInputs.write(work.resolve("local"), "upload-memory/", 1, bytes, 42).objects().get(0);
            OUT.printf("file: %d MiB, sha256 %s; resident before the upload: %d MiB%n", bytes / MIB, file.sha256(),
                    status("VmRSS:") / 1024);
            try (S3ObjectStore store = new S3ObjectStore(config, new UploadTuning(64 * MIB, (int) (64 * MIB), 4),
                    ReadTuning.defaults(), work.resolve("journals"), UploadObserver.NONE, Clock.systemUTC())) {
                AtomicLong maxRssKb = new AtomicLong();
                sampler.scheduleAtFixedRate(() -> maxRssKb.accumulateAndGet(status("VmRSS:"), Math::max),
                        0, 100, TimeUnit.MILLISECONDS);
                long started = System.nanoTime();
                PutResult put = store.put("up/memory", file.file(), bytes, file.sha256(), Map.of());
                double seconds = (System.nanoTime() - started) / 1e9;
                sampler.shutdownNow();
                long peakKb = status("VmHWM:");
                OUT.printf("upload: %.2f s, %.1f MiB/s (load average %s)%n", seconds, bytes / (double) MIB / seconds,
                        MachineInfo.loadAverage());
                OUT.printf("resident set while uploading: max sampled VmRSS %d MiB, VmHWM %d MiB; max heap %d MiB%n",
                        maxRssKb.get() / 1024, peakKb / 1024, Runtime.getRuntime().maxMemory() / MIB);
                ReadResult read = store.readAndHash("up/memory");
                if (read.bytes() != bytes || !read.sha256().equals(file.sha256()) || !put.sha256().equals(file.sha256())) {
                    throw new IOException("up/memory reads back as " + read + ", expected " + bytes + " bytes "
                            + file.sha256());
                }
                OUT.println("object read back with the file's SHA-256");
            }
        } finally {
            sampler.shutdownNow();
            deleteTree(work);
        }
    }

    /** @return the value in kB of one {@code /proc/self/status} line, e.g. {@code VmRSS:} */
    private static long status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
