package io.stowage.bench;

import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import io.stowage.store.UploadObserver;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The checkpoint upload benchmark, one file: starts an {@link EmbeddedStack} (real S3Proxy), writes one random file
 * ({@code -Dstowage.bench.upload-bytes}, default 1 GiB), then uploads it in interleaved timed runs
 * ({@code -Dstowage.bench.upload-runs}, default 3) with Stowage's resumable multipart upload (64 MiB parts, 4 in
 * flight, journal fsynced per part), {@code aws s3 cp} and {@code rclone copyto}, each to its own key. Every
 * object is read back and hashed once at the end; a wrong object voids the run. Prints each run, MiB/s medians, the
 * ratios, and the peak resident memory of this JVM (the Stowage client; S3Proxy and the tools are other processes).
 *
 * <p>With {@code -Dstowage.bench.upload-files=N} (N &gt; 1) it writes N files of upload-bytes each into one directory
 * and times Stowage putting every file ({@code S3ObjectStore.put}, one PUT each below 64 MiB; files one after the
 * other, as the uploader's {@code UploadWork} does for the files of one event, or
 * {@code -Dstowage.bench.upload-concurrency} at once), {@code aws s3 cp --recursive} and {@code rclone copy} of the
 * directory (each with its own default parallelism).
 */
public final class CheckpointUploadBenchmark {
    private static final PrintStream OUT = System.out;
    private static final long MIB = 1 << 20;

    private CheckpointUploadBenchmark() {
    }

    /** @throws Exception when the stack, an upload or the read-back check fails */
    public static void main(String[] args) throws Exception {
        long bytes = Long.getLong("stowage.bench.upload-bytes", 1L << 30);
        int runs = Integer.getInteger("stowage.bench.upload-runs", 3);
        String aws = System.getProperty("stowage.bench.aws", "aws");
        String rclone = System.getProperty("stowage.bench.rclone", "rclone");
        int files = Integer.getInteger("stowage.bench.upload-files", 1);
        int concurrency = Integer.getInteger("stowage.bench.upload-concurrency", 1);
        Path work = Files.createTempDirectory("stowage-upload-bench");
        OUT.println("## Machine\n" + MachineInfo.describe(BenchOptions.fromSystemProperties()));
        OUT.println("aws: " + ExternalCommand.firstLine(List.of(aws, "--version")));
        OUT.println("rclone: " + ExternalCommand.firstLine(List.of(rclone, "version")));
        try (EmbeddedStack stack = EmbeddedStack.start(work.resolve("stack"))) {
            StackEndpoints ep = stack.endpoints();
            S3Target target = new S3Target(ep.s3Endpoint(), ep.s3Region(), ep.primaryBucket(), ep.s3AccessKey(),
                    ep.s3SecretKey());
            StoreConfig config = new StoreConfig("primary", URI.create(ep.s3Endpoint()), ep.s3Region(),
                    ep.primaryBucket(), ep.s3AccessKey(), ep.s3SecretKey());
            InputSet input = RandomInputs.write(work.resolve("local"), "upload-bench/", files, bytes, 42);
            BenchObject file = input.objects().get(0);
            Path local = file.file();
            Path scratch = Files.createDirectories(work.resolve("scratch"));
            try (S3ObjectStore store = new S3ObjectStore(config, new UploadTuning(64 * MIB, (int) (64 * MIB), 4),
                    ReadTuning.defaults(), work.resolve("journals"), UploadObserver.NONE, Clock.systemUTC())) {
                if (files > 1) {
                    manyFiles(store, input, target, scratch, aws, rclone, runs, concurrency);
                    return;
                }
                Map<String, List<Double>> seconds = new java.util.LinkedHashMap<>();
                List<String> keys = new ArrayList<>();
                for (int run = 1; run <= runs; run++) {
                    String stowageKey = "up/stowage/" + run;
                    String awsKey = "up/aws/" + run;
                    String rcloneKey = "up/rclone/" + run;
                    time(seconds, "stowage (resumable multipart)", run, () -> store.put(stowageKey, local, bytes,
                            file.sha256(), Map.of()));
                    time(seconds, "aws s3 cp", run, () -> ExternalCommand.run(List.of(aws, "s3", "cp", "--only-show-errors",
                            local.toString(), "s3://" + target.bucket() + "/" + awsKey, "--endpoint-url",
                            target.endpoint()), awsEnvironment(target, scratch), Set.of(), scratch));
                    time(seconds, "rclone copyto", run, () -> ExternalCommand.run(List.of(rclone, "copyto", "-q",
                            local.toString(), "s3:" + target.bucket() + "/" + rcloneKey),
                            rcloneEnvironment(target, scratch), Set.of("AWS_CA_BUNDLE"), scratch));
                    keys.addAll(List.of(stowageKey, awsKey, rcloneKey));
                }
                long peakKb = peakResidentKb();
                for (String key : keys) {
                    ReadResult read = store.readAndHash(key);
                    if (read.bytes() != bytes || !read.sha256().equals(file.sha256())) {
                        throw new IOException(key + " reads back as " + read + ", expected " + bytes + " bytes " + file.sha256());
                    }
                }
                OUT.println("every uploaded object read back with the file's SHA-256");
                report(seconds, bytes, runs, peakKb);
            }
        } finally {
            deleteTree(work);
        }
    }

    private static void manyFiles(S3ObjectStore store, InputSet input, S3Target target, Path scratch, String aws,
                                  String rclone, int runs, int concurrency) throws Exception {
        String stowageName = "stowage (put per file, " + concurrency + " at once)";
        Map<String, List<Double>> seconds = new java.util.LinkedHashMap<>();
        List<String> prefixes = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(concurrency);
        try {
            for (int run = 1; run <= runs; run++) {
                String stowagePrefix = "many/stowage/" + run + "/";
                String awsPrefix = "many/aws/" + run + "/";
                String rclonePrefix = "many/rclone/" + run + "/";
                time(seconds, stowageName, run, () -> {
                    List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
                    for (BenchObject o : input.objects()) {
                        sent.add(pool.submit(() -> store.put(stowagePrefix + o.file().getFileName(), o.file(), o.bytes(),
                                o.sha256(), Map.of())));
                    }
                    for (java.util.concurrent.Future<?> f : sent) {
                        f.get();
                    }
                });
                time(seconds, "aws s3 cp --recursive", run, () -> ExternalCommand.run(List.of(aws, "s3", "cp",
                        "--recursive", "--only-show-errors", input.dir().toString(),
                        "s3://" + target.bucket() + "/" + awsPrefix, "--endpoint-url", target.endpoint()),
                        awsEnvironment(target, scratch), Set.of(), scratch));
                time(seconds, "rclone copy", run, () -> ExternalCommand.run(List.of(rclone, "copy", "-q",
                        input.dir().toString(), "s3:" + target.bucket() + "/" + rclonePrefix),
                        rcloneEnvironment(target, scratch), Set.of("AWS_CA_BUNDLE"), scratch));
                prefixes.addAll(List.of(stowagePrefix, awsPrefix, rclonePrefix));
            }
        } finally {
            pool.shutdownNow();
        }
        long peakKb = peakResidentKb();
        for (String prefix : prefixes) {
            for (BenchObject o : input.objects()) {
                ReadResult read = store.readAndHash(prefix + o.file().getFileName());
                if (read.bytes() != o.bytes() || !read.sha256().equals(o.sha256())) {
                    throw new IOException(prefix + o.file().getFileName() + " reads back as " + read);
                }
            }
        }
        OUT.println("every uploaded object read back with its file's SHA-256");
        long total = input.totalBytes();
        OUT.printf("%n## Upload of %s (%d MiB), median of %d runs (load average at the end %s)%n%n", input.label(),
                total / MIB, runs, MachineInfo.loadAverage());
        OUT.println("| tool | median s | MiB/s | files/s |");
        OUT.println("|---|---|---|---|");
        Map<String, Double> rate = new java.util.LinkedHashMap<>();
        seconds.forEach((name, list) -> {
            double median = list.stream().sorted().toList().get(list.size() / 2);
            rate.put(name, total / (double) MIB / median);
            OUT.printf("| %s | %.2f | %.1f | %.0f |%n", name, median, total / (double) MIB / median,
                    input.objects().size() / median);
        });
        double stowage = rate.get(stowageName);
        OUT.printf("%nstowage / aws = %.2f× (goal ≥ 1.2×); stowage / rclone = %.2f× (goal ≥ 1.5×)%n",
                stowage / rate.get("aws s3 cp --recursive"), stowage / rate.get("rclone copy"));
        OUT.printf("peak resident memory of the Stowage JVM (VmHWM, after the uploads): %d MiB (max heap %d MiB)%n",
                peakKb / 1024, Runtime.getRuntime().maxMemory() / MIB);
    }

    private interface Upload {
        void run() throws Exception;
    }

    private static void time(Map<String, List<Double>> seconds, String name, int run, Upload upload) throws Exception {
        long started = System.nanoTime();
        upload.run();
        double s = (System.nanoTime() - started) / 1e9;
        seconds.computeIfAbsent(name, n -> new ArrayList<>()).add(s);
        OUT.printf("  run %d  %-32s %7.2f s%n", run, name, s);
    }

    private static void report(Map<String, List<Double>> seconds, long bytes, int runs, long peakKb) {
        OUT.printf("%n## Upload of one %d MiB file, median of %d runs (load average at the end %s)%n%n", bytes / MIB, runs,
                MachineInfo.loadAverage());
        OUT.println("| tool | median s | MiB/s |");
        OUT.println("|---|---|---|");
        Map<String, Double> rate = new java.util.LinkedHashMap<>();
        seconds.forEach((name, list) -> {
            double median = list.stream().sorted().toList().get(list.size() / 2);
            rate.put(name, bytes / (double) MIB / median);
            OUT.printf("| %s | %.2f | %.1f |%n", name, median, bytes / (double) MIB / median);
        });
        double stowage = rate.get("stowage (resumable multipart)");
        OUT.printf("%nstowage / aws s3 cp = %.2f× (goal ≥ 1.2×); stowage / rclone copyto = %.2f× (goal ≥ 1.5×)%n",
                stowage / rate.get("aws s3 cp"), stowage / rate.get("rclone copyto"));
        OUT.printf("peak resident memory of the Stowage JVM (VmHWM, after the uploads): %d MiB (max heap %d MiB)%n",
                peakKb / 1024, Runtime.getRuntime().maxMemory() / MIB);
        OUT.println("JVM: " + ManagementFactory.getRuntimeMXBean().getVmName() + " "
                + ManagementFactory.getRuntimeMXBean().getVmVersion());
    }

    private static long peakResidentKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static Map<String, String> awsEnvironment(S3Target target, Path scratch) {
        return Map.of("AWS_ACCESS_KEY_ID", target.accessKeyId(), "AWS_SECRET_ACCESS_KEY", target.secretAccessKey(),
                "AWS_DEFAULT_REGION", target.region(), "AWS_CONFIG_FILE", scratch.resolve("aws-config").toString(),
                "AWS_SHARED_CREDENTIALS_FILE", scratch.resolve("aws-credentials").toString(), "AWS_PAGER", "");
    }

    private static Map<String, String> rcloneEnvironment(S3Target target, Path scratch) {
        return Map.of("RCLONE_CONFIG", scratch.resolve("rclone.conf").toString(), "RCLONE_CONFIG_S3_TYPE", "s3",
                "RCLONE_CONFIG_S3_PROVIDER", "Other", "RCLONE_CONFIG_S3_ENDPOINT", target.endpoint(),
                "RCLONE_CONFIG_S3_REGION", target.region(), "RCLONE_CONFIG_S3_ACCESS_KEY_ID", target.accessKeyId(),
                "RCLONE_CONFIG_S3_SECRET_ACCESS_KEY", target.secretAccessKey(),
                "RCLONE_CONFIG_S3_FORCE_PATH_STYLE", "true");
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
