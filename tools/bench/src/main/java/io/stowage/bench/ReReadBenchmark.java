package io.stowage.bench;

import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import io.stowage.store.ObjectReader;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.S3ObjectReader;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The full re-read speed benchmark: starts an {@link EmbeddedStack} (real S3Proxy) in a work directory, writes random
 * inputs (one 1 GiB object; 200 objects of 10 MiB), uploads them with the store's writer, then times, on the same
 * objects in the same run, Stowage's full re-read ({@link StowageReRead}), {@link RcloneCheck} and
 * {@link AwsOpensslPipeline}; prints the machine, each run and a Markdown table with the goals. Deletes the work
 * directory at the end unless {@code -Dstowage.bench.keep=true}. Options: {@link BenchOptions}.
 */
public final class ReReadBenchmark {
    private static final PrintStream OUT = System.out;

    private ReReadBenchmark() {
    }

    /** @throws Exception when the stack, an upload or any read fails (a wrong read ends the run: its figures are void) */
    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.fromSystemProperties();
        Path work = options.workDir().orElse(null);
        work = work == null ? Files.createTempDirectory("stowage-bench") : Files.createDirectories(work);
        OUT.println("## Machine\n" + MachineInfo.describe(options));
        try {
            String table = run(options, work);
            OUT.println("## Results (median of " + options.runs() + " timed runs after " + options.warmups()
                    + " warm-up; load average at the end " + MachineInfo.loadAverage() + ")\n");
            OUT.println(table);
        } finally {
            if (!options.keep()) {
                deleteTree(work);
            }
        }
    }

    private static String run(BenchOptions options, Path work) throws Exception {
        try (EmbeddedStack stack = EmbeddedStack.start(work.resolve("stack"))) {
            StackEndpoints ep = stack.endpoints();
            S3Target target = new S3Target(ep.s3Endpoint(), ep.s3Region(), ep.primaryBucket(), ep.s3AccessKey(),
                    ep.s3SecretKey());
            StoreConfig config = new StoreConfig("primary", URI.create(ep.s3Endpoint()), ep.s3Region(),
                    ep.primaryBucket(), ep.s3AccessKey(), ep.s3SecretKey());
            Path scratch = Files.createDirectories(work.resolve("scratch"));
            ReaderOptions readers = ReaderOptions.fromSystemProperties();
            OUT.println("stowage read paths " + readers.readers() + ", " + readers.tuning());
            List<AutoCloseable> open = new ArrayList<>();
            try (S3ObjectStore store = new S3ObjectStore(config, UploadTuning.defaults(), readers.tuning())) {
                List<StowageReRead> stowage = new ArrayList<>();
                for (String path : readers.readers()) {
                    ObjectReader reader = switch (path) {
                        case "netty" -> store;
                        case "apache" -> new S3ObjectReader(config, readers.tuning(), HttpBackend.APACHE);
                        case "urlconnection" -> new S3ObjectReader(config, readers.tuning(), HttpBackend.URL_CONNECTION);
                        default -> throw new IllegalArgumentException("unknown read path " + path
                                + " (stowage.bench.readers: netty, apache, urlconnection)");
                    };
                    if (reader instanceof AutoCloseable c && reader != store) {
                        open.add(c);
                    }
                    StowageReRead contender = new StowageReRead(reader, path, options.parallelism());
                    open.add(contender);
                    stowage.add(contender);
                }
                InputSet big = prepare(store, RandomInputs.write(work.resolve("local/big"), "bench-big/", 1,
                        options.bigBytes(), options.seed()));
                InputSet small = prepare(store, RandomInputs.write(work.resolve("local/small"), "bench-small/",
                        options.smallCount(), options.smallBytes(), options.seed() + 1));
                RcloneCheck rclone = new RcloneCheck(options.rclone(), target, scratch);
                AwsOpensslPipeline aws = new AwsOpensslPipeline(options.aws(), options.openssl(), target, scratch);
                Trials trials = new Trials(options.warmups(), options.runs(), OUT);
                List<Contender> onBig = new ArrayList<>(stowage);
                onBig.add(rclone);
                onBig.add(aws);
                List<Contender> onSmall = new ArrayList<>(stowage);
                onSmall.add(rclone);
                if (options.awsOnSmall()) {
                    onSmall.add(aws);
                }
                List<Measurement> measurements = new ArrayList<>(trials.measure(onBig, big));
                measurements.addAll(trials.measure(onSmall, small));
                List<Goal> goals = new ArrayList<>();
                for (StowageReRead s : stowage) {
                    goals.add(new Goal(s.name(), big.label(), rclone.name(), 0.8));
                    goals.add(new Goal(s.name(), big.label(), aws.name(), 2.0));
                    goals.add(new Goal(s.name(), small.label(), rclone.name(), 1.0));
                }
                return new ReportTable(rclone.name()).render(measurements, goals);
            } finally {
                for (AutoCloseable c : open) {
                    c.close();
                }
            }
        }
    }

    private static InputSet prepare(S3ObjectStore store, InputSet set) throws Exception {
        double seconds = InputUpload.putAll(store, set, 4);
        OUT.printf("uploaded %s (%d MiB) with the store's writer in %.1f s%n", set.label(), set.totalBytes() >> 20, seconds);
        return set;
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
