package io.stowage.bench;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.prefetch.DatasetFetcher;
import io.stowage.prefetch.FetchListener;
import io.stowage.prefetch.FetchReport;
import io.stowage.prefetch.ShardCache;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectReader;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The prefetch benchmark: starts an {@link EmbeddedStack} (real S3Proxy), uploads {@code shards} random shards
 * of {@code shard-bytes} bytes each and their dataset manifest, then alternates, on a cold (empty) target each time,
 * Stowage's {@link DatasetFetcher#fetchAll} (SHA-256 of every shard checked, fsync, rename) and {@code rclone copy}
 * of the same {@code shards/} prefix from the same server (rclone's defaults: 4 transfers), the order switched every
 * run; also the client CPU seconds per GiB of each (this JVM's process CPU time; rclone's from bash {@code times}).
 * Prints each run, the medians in MiB/s and the ratio (goal: Stowage ≥ 1.2× rclone). System properties
 * ({@code -Dstowage.bench.NAME}): {@code shards} (8), {@code shard-bytes} (134217728), {@code runs} (3),
 * {@code parallel} (8), {@code rclone} (rclone), {@code work-dir} (a temporary directory, deleted at the end).
 */
public final class PrefetchBenchmark {
    private static final PrintStream OUT = System.out;
    private static final String DATASET = "bench-prefetch";
    private static final String REVISION = "r1";

    private PrefetchBenchmark() {
    }

    /** @throws Exception when the stack, an upload, a fetch or rclone fails (a failed run voids the figures) */
    public static void main(String[] args) throws Exception {
        int shards = Integer.getInteger("stowage.bench.shards", 8);
        long shardBytes = Long.getLong("stowage.bench.shard-bytes", 128L << 20);
        int runs = Integer.getInteger("stowage.bench.runs", 3);
        int parallel = Integer.getInteger("stowage.bench.parallel", 8);
        String rclone = System.getProperty("stowage.bench.rclone", "rclone");
        String dir = System.getProperty("stowage.bench.work-dir");
        Path work = dir == null ? Files.createTempDirectory("stowage-prefetch-bench") : Files.createDirectories(Path.of(dir));
        OUT.println("- date: " + java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC) + "; cores seen by the JVM: "
                + Runtime.getRuntime().availableProcessors() + "; load average " + MachineInfo.loadAverage());
        OUT.println("- rclone: " + ExternalCommand.firstLine(List.of(rclone, "version")) + "; java "
                + System.getProperty("java.runtime.version"));
        OUT.println("- input: " + shards + " shards × " + (shardBytes >> 20) + " MiB of random bytes; stowage --parallel "
                + parallel + "; " + runs + " runs each, interleaved, cold target directory each run");
        try (EmbeddedStack stack = EmbeddedStack.start(work.resolve("stack"))) {
            run(stack.endpoints(), work, shards, shardBytes, runs, parallel, rclone);
        } finally {
            deleteTree(work);
        }
    }

    private static void run(StackEndpoints ep, Path work, int shards, long shardBytes, int runs, int parallel,
                            String rclone) throws Exception {
        StoreConfig config = new StoreConfig("primary", URI.create(ep.s3Endpoint()), ep.s3Region(), ep.primaryBucket(),
                ep.s3AccessKey(), ep.s3SecretKey());
        DatasetManifest manifest;
        try (S3ObjectStore store = new S3ObjectStore(config, UploadTuning.defaults())) {
            manifest = upload(store, work, shards, shardBytes);
        }
        long total = (long) shards * shardBytes;
        S3Target target = new S3Target(ep.s3Endpoint(), ep.s3Region(), ep.primaryBucket(), ep.s3AccessKey(), ep.s3SecretKey());
        double[] ours = new double[runs];
        double[] theirs = new double[runs];
        double[] ourCpu = new double[runs];
        double[] synced = new double[runs];
        double[] theirCpu = new double[runs];
        try (S3ObjectReader reader = new S3ObjectReader(config, ReadTuning.defaults(), HttpBackend.APACHE)) {
            for (int i = 0; i < runs; i++) {
                double[] r = null;
                if (i % 2 == 1) { // every other run rclone goes first: neither always meets the warmer server
                    r = rclone(rclone, target, work, work.resolve("rclone-" + i), shards, total);
                }
                double cpuBefore = processCpuSeconds();
                ours[i] = stowage(reader, work.resolve("fetch-" + i), manifest, parallel, total);
                ourCpu[i] = (processCpuSeconds() - cpuBefore) / (total / 1073741824.0);
                if (r == null) {
                    r = rclone(rclone, target, work, work.resolve("rclone-" + i), shards, total);
                }
                theirs[i] = r[0];
                synced[i] = r[2];
                theirCpu[i] = r[1] / (total / 1073741824.0);
                OUT.printf(Locale.ROOT, "run %d: stowage %.1f MiB/s (%.2f CPU s/GiB), rclone copy %.1f MiB/s (%.2f CPU"
                        + " s/GiB), rclone copy + sync %.1f MiB/s (load %s)%n", i + 1, ours[i], ourCpu[i], theirs[i],
                        theirCpu[i], synced[i], MachineInfo.loadAverage());
            }
        }
        double a = median(ours);
        double b = median(theirs);
        OUT.println();
        OUT.println("| contender | median MiB/s | runs (MiB/s) | median client CPU s/GiB |");
        OUT.println("|---|---|---|---|");
        OUT.printf(Locale.ROOT, "| stowage dataset fetch (DatasetFetcher, parallel %d) | %.1f | %s | %.2f |%n", parallel,
                a, list(ours), median(ourCpu));
        OUT.printf(Locale.ROOT, "| rclone copy (defaults) | %.1f | %s | %.2f |%n", b, list(theirs), median(theirCpu));
        OUT.printf(Locale.ROOT, "| rclone copy, then sync of its files (durable like ours) | %.1f | %s | |%n",
                median(synced), list(synced));
        OUT.printf(Locale.ROOT, "%nratio stowage / rclone: %.2f× (goal ≥ 1.2×: %s); stowage / (rclone + sync): %.2f×;"
                + " load average at the end %s%n", a / b, a / b >= 1.2 ? "met" : "MISSED", a / median(synced),
                MachineInfo.loadAverage());
    }

    private static DatasetManifest upload(S3ObjectStore store, Path work, int shards, long shardBytes) throws Exception {
        InputSet raw = RandomInputs.write(work.resolve("local"), "unused/", shards, shardBytes, 11);
        List<BenchObject> objects = new ArrayList<>();
        List<ShardEntry> entries = new ArrayList<>();
        for (BenchObject o : raw.objects()) {
            String key = ObjectKeys.shard(DATASET, REVISION, o.sha256());
            objects.add(new BenchObject(key, o.file(), o.bytes(), o.sha256()));
            entries.add(new ShardEntry(entries.size(), key, o.bytes(), o.sha256(),
                    ObjectKeys.members(DATASET, REVISION, o.sha256()), 0, Sha256.of(new byte[0]), 0));
        }
        double seconds = InputUpload.putAll(store, new InputSet(raw.label(), raw.dir(), "datasets/" + DATASET + "/"
                + REVISION + "/shards/", objects), 4);
        OUT.printf(Locale.ROOT, "- uploaded %s in %.1f s%n", raw.label(), seconds);
        DatasetManifest manifest = new DatasetManifest(DatasetManifest.FORMAT, DATASET, REVISION, "CC0-1.0", "bench", 0,
                0, entries);
        Path file = work.resolve("manifest.json");
        byte[] json = EventCodec.mapper().writeValueAsBytes(manifest);
        Files.write(file, json);
        store.put(ObjectKeys.datasetManifest(DATASET, REVISION), file, json.length, Sha256.of(json), Map.of());
        deleteTree(raw.dir()); // the page cache should not favour either contender with the source files
        return manifest;
    }

    private static double stowage(S3ObjectReader reader, Path to, DatasetManifest manifest, int parallel, long total)
            throws IOException {
        long start = System.nanoTime();
        FetchReport report;
        try (ShardCache cache = ShardCache.open(to, Long.MAX_VALUE)) {
            report = new DatasetFetcher(reader, cache, parallel).fetchAll(manifest, FetchListener.NONE);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!report.complete() || report.fetched() != manifest.shards().size()) {
            throw new IllegalStateException("the fetch failed: " + report);
        }
        deleteTree(to);
        return total / 1048576.0 / seconds;
    }

    /** @return CPU seconds this JVM used so far (user + system, all threads); S3Proxy runs in a child process */
    private static double processCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** @return MiB/s and CPU seconds of rclone (and its children) */
    private static double[] rclone(String rclone, S3Target target, Path work, Path to, int shards, long total)
            throws IOException {
        Files.createDirectories(to);
        String remote = "s3:" + target.bucket() + "/datasets/" + DATASET + "/" + REVISION + "/shards/";
        Map<String, String> env = Map.of(
                "RCLONE_CONFIG", work.resolve("rclone.conf").toString(),
                "RCLONE_CONFIG_S3_TYPE", "s3",
                "RCLONE_CONFIG_S3_PROVIDER", "Other",
                "RCLONE_CONFIG_S3_ENDPOINT", target.endpoint(),
                "RCLONE_CONFIG_S3_REGION", target.region(),
                "RCLONE_CONFIG_S3_ACCESS_KEY_ID", target.accessKeyId(),
                "RCLONE_CONFIG_S3_SECRET_ACCESS_KEY", target.secretAccessKey(),
                "RCLONE_CONFIG_S3_FORCE_PATH_STYLE", "true");
        long start = System.nanoTime();
        double cpu = ExternalCommand.runTimed(List.of(rclone, "copy", "-q", remote, to.toString()), env,
                Set.of("AWS_CA_BUNDLE"), work).cpuSeconds();
        double seconds = (System.nanoTime() - start) / 1e9;
        List<String> copied;
        try (Stream<Path> files = Files.list(to)) {
            copied = files.filter(f -> f.getFileName().toString().endsWith(".tar.zst")).map(Path::toString).toList();
        }
        if (copied.size() != shards) {
            throw new IllegalStateException("rclone copied " + copied.size() + " shards, not " + shards);
        }
        // rclone does not fsync; Stowage does (fdatasync per shard). `sync FILE...` (coreutils) fsyncs each copy
        List<String> sync = new ArrayList<>(List.of("sync"));
        sync.addAll(copied);
        ExternalCommand.run(sync, Map.of(), Set.of(), work);
        double withSync = (System.nanoTime() - start) / 1e9;
        deleteTree(to);
        return new double[]{total / 1048576.0 / seconds, cpu, total / 1048576.0 / withSync};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String list(double[] values) {
        return String.join(", ", Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
