package io.stowage.bench;

import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.MemberManifest;
import io.stowage.shardformat.ShardReader;
import io.stowage.shardformat.ShardReport;
import io.stowage.shardformat.write.BuiltShard;
import io.stowage.shardformat.write.DatasetSharder;
import io.stowage.shardformat.write.SealedDataset;
import io.stowage.shardformat.write.ShardRequest;
import io.stowage.shardformat.write.ShardWriter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The shard benchmark: writes a mixed input ({@link MixedInput}), then in interleaved rounds on that same
 * input times (1) Stowage's shard builder ({@link DatasetSharder}: member SHA-256, PAX tar, zstd -3, shard SHA-256 in
 * one pass), (2) the reference pipeline a user would write, {@code tar --sort=name --format=pax -cf - . | zstd -3 -T0
 * | sha256sum} followed by {@code sha256sum} of every member, and (3) {@code zstd -3 -T0} alone on the same tar stream
 * (a tar file written beforehand, untimed), the compression limit. Prints MiB/s of input member bytes for all three,
 * the ratios against the goals (Stowage &ge; 2&times; reference, &ge; 0.65&times; zstd alone), the load average around
 * each run, and the re-read of the built shards by {@link ShardReader} against their member manifests. A benchmark,
 * not a test: run by hand (docs/benchmarks/shards.md).
 */
public final class ShardBenchmark {
    private static final double MIB = 1 << 20;

    private ShardBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        ShardBenchOptions options = ShardBenchOptions.fromSystemProperties();
        Path work = options.workDir().isPresent() ? Files.createDirectories(options.workDir().get())
                : Files.createTempDirectory("stowage-shard-bench-");
        try {
            run(options, work);
        } finally {
            if (!options.keep()) {
                delete(work);
            }
        }
    }

    private static void run(ShardBenchOptions options, Path work) throws Exception {
        System.out.println("work directory " + work + ", load average " + MachineInfo.loadAverage());
        long started = System.nanoTime();
        MixedInput input = MixedInput.write(work.resolve("input"), options.totalBytes(), options.wavDir(), options.seed());
        System.out.printf("input: %d files, %d bytes (%.0f MiB) written in %.1f s%n", input.files(), input.bytes(),
                input.bytes() / MIB, seconds(started));
        Path tar = work.resolve("input.tar");
        shell("tar --sort=name --format=pax -cf " + quote(tar) + " .", input.dir());
        System.out.printf("tar stream for zstd alone: %d bytes%n", Files.size(tar));
        shell("cat " + quote(tar) + " > /dev/null", work); // page cache: every contender reads warm files

        List<Double> stowage = new ArrayList<>();
        List<Double> reference = new ArrayList<>();
        List<Double> zstd = new ArrayList<>();
        List<Double> stowageCpu = new ArrayList<>();
        List<Double> referenceCpu = new ArrayList<>();
        List<Double> zstdCpu = new ArrayList<>();
        List<String> loads = new ArrayList<>();
        for (int round = 1; round <= options.runs(); round++) {
            Path staging = work.resolve("staging-" + round);
            String load = MachineInfo.loadAverage();
            long cpu0 = processCpuNanos();
            long t0 = System.nanoTime();
            SealedDataset sealed = new DatasetSharder(new ShardWriter(0)).shard(new ShardRequest(input.dir(), "bench",
                    "r" + round, null, null, options.shardBytes(), staging));
            stowage.add(seconds(t0));
            stowageCpu.add((processCpuNanos() - cpu0) / 1e9);
            loads.add("stowage round " + round + ": " + load + " -> " + MachineInfo.loadAverage());
            if (round == 1) {
                reread(sealed);
            }
            delete(staging);

            load = MachineInfo.loadAverage();
            t0 = System.nanoTime();
            referenceCpu.add(timedShell("set -o pipefail; tar --sort=name --format=pax -cf - . | zstd -3 -T0 -q | sha256sum > /dev/null"
                    + " && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum > /dev/null", input.dir()));
            reference.add(seconds(t0));
            loads.add("reference round " + round + ": " + load + " -> " + MachineInfo.loadAverage());

            load = MachineInfo.loadAverage();
            t0 = System.nanoTime();
            zstdCpu.add(timedShell("zstd -3 -T0 -q -c " + quote(tar) + " > /dev/null", work));
            zstd.add(seconds(t0));
            loads.add("zstd alone round " + round + ": " + load + " -> " + MachineInfo.loadAverage());
            System.out.printf("round %d: stowage %.1f s (CPU %.1f s), reference %.1f s (CPU %.1f s), zstd alone %.1f s (CPU %.1f s)%n",
                    round, stowage.get(round - 1), stowageCpu.get(round - 1), reference.get(round - 1),
                    referenceCpu.get(round - 1), zstd.get(round - 1), zstdCpu.get(round - 1));
        }
        report(input, options, new double[]{median(stowage), median(reference), median(zstd)},
                new double[]{median(stowageCpu), median(referenceCpu), median(zstdCpu)}, loads);
    }

    /** Re-reads every shard just built with the shard-format reader; stops the benchmark on any problem. */
    private static void reread(SealedDataset sealed) throws IOException {
        long t0 = System.nanoTime();
        long memberBytes = 0;
        ShardReader reader = new ShardReader();
        for (BuiltShard shard : sealed.shards()) {
            List<MemberEntry> members = MemberManifest.read(shard.members().path());
            ShardReport report;
            try (InputStream in = Files.newInputStream(shard.shard().path())) {
                report = reader.verify(in, members, shard.shard().sha256());
            }
            if (!report.ok()) {
                throw new IllegalStateException("shard " + shard.shard().path() + " does not read back: " + report.problems());
            }
            memberBytes += report.memberBytes();
        }
        System.out.printf("re-read of %d shards by ShardReader: every member matches its manifest, %.0f MiB/s (%.1f s)%n",
                sealed.shards().size(), memberBytes / MIB / seconds(t0), seconds(t0));
    }

    /**
     * @param wall medians of wall-clock seconds: Stowage, reference, zstd alone
     * @param cpu  medians of CPU seconds (user + system; this JVM for Stowage, the shell's children for the others)
     */
    private static void report(MixedInput input, ShardBenchOptions options, double[] wall, double[] cpu, List<String> loads) {
        double mib = input.bytes() / MIB;
        double gib = input.bytes() / (MIB * 1024);
        double stowage = wall[0];
        double reference = wall[1];
        double zstd = wall[2];
        System.out.println();
        System.out.printf("| contender | median s | MiB/s of input | median CPU s | CPU s per GiB |%n|---|---|---|---|---|%n");
        System.out.printf("| Stowage shard builder (DatasetSharder, %d MiB shards) | %.1f | %.0f | %.1f | %.1f |%n",
                options.shardBytes() >> 20, stowage, mib / stowage, cpu[0], cpu[0] / gib);
        System.out.printf("| reference: tar \\| zstd -3 -T0 \\| sha256sum, then sha256sum of every member | %.1f | %.0f | %.1f | %.1f |%n",
                reference, mib / reference, cpu[1], cpu[1] / gib);
        System.out.printf("| zstd -3 -T0 alone on the tar | %.1f | %.0f | %.1f | %.1f |%n", zstd, mib / zstd, cpu[2], cpu[2] / gib);
        System.out.printf("%nStowage / reference = %.2fx (goal >= 2x): %s%n", reference / stowage, reference / stowage >= 2 ? "met" : "MISSED");
        System.out.printf("Stowage / zstd alone = %.2fx (goal >= 0.65x): %s%n", zstd / stowage, zstd / stowage >= 0.65 ? "met" : "MISSED");
        System.out.println("runs: " + options.runs() + " interleaved rounds, medians; input " + input.files() + " files, "
                + input.bytes() + " bytes");
        loads.forEach(l -> System.out.println("load average " + l));
        System.out.println("- date: " + java.time.Instant.now() + "; cores seen by the JVM: "
                + Runtime.getRuntime().availableProcessors());
        System.out.println("- java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        System.out.println("- zstd: " + ExternalCommand.firstLine(List.of("zstd", "--version")));
        System.out.println("- tar: " + ExternalCommand.firstLine(List.of("tar", "--version")));
        System.out.println("- max heap: " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
    }

    /** @return CPU seconds (user + system) of the script's processes */
    private static double timedShell(String script, Path dir) throws IOException {
        return ExternalCommand.runTimed(List.of("bash", "-c", script), Map.of(), Set.of(), dir).cpuSeconds();
    }

    /** This JVM's CPU time, all threads (JIT and GC included), in nanoseconds. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void shell(String script, Path dir) throws IOException {
        ExternalCommand.run(List.of("bash", "-c", script), Map.of(), Set.of(), dir);
    }

    private static String quote(Path path) {
        return "'" + path.toString().replace("'", "'\\''") + "'";
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
