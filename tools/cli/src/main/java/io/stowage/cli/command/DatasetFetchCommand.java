package io.stowage.cli.command;

import io.stowage.cli.ByteCount;
import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.NameArguments;
import io.stowage.cli.output.FetchProgressBar;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.prefetch.CacheFullException;
import io.stowage.prefetch.DatasetFetcher;
import io.stowage.prefetch.FetchReport;
import io.stowage.prefetch.ManifestException;
import io.stowage.prefetch.MemberMismatchException;
import io.stowage.prefetch.ShardCache;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreException;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code stowage dataset fetch}: brings a dataset revision's shards from the primary store into a local cache
 * directory with the prefetch module's {@link DatasetFetcher}, each SHA-256 verified; with {@code --extract} also
 * unpacks every member, checked against its member manifest, into {@code DIR/members/}.
 */
@Command(name = "fetch", mixinStandardHelpOptions = true,
        description = {"Fetch a dataset revision's shards from the primary store into DIR/shards/<sha256>.tar.zst, each"
                + " SHA-256 verified while it streams; shards already cached are not read again (an interrupted fetch"
                + " resumes). The cache keeps at most --cache-limit bytes of shards, evicting the least recently used"
                + " shards of other revisions. A shard that fails its SHA-256 is retried once, then reported; nothing"
                + " of it is kept."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every shard cached and verified (and extracted with --extract)",
                "1:a shard failed twice, the manifest is missing, the store failed, or the cache is too small",
                "2:bad input (a name, --to, --cache-limit, --parallel)"})
final class DatasetFetchCommand implements Callable<Integer> {
    @Option(names = "--dataset", required = true, description = "Dataset name (ASCII letters, digits, '.', '_', '-').")
    String dataset;
    @Option(names = "--revision", required = true, description = "Dataset revision (same characters).")
    String revision;
    @Option(names = "--to", required = true, paramLabel = "DIR", description = "The cache directory (created when missing).")
    Path to;
    @Option(names = "--cache-limit", paramLabel = "BYTES", description = "Most bytes of shards kept in DIR, e.g. 500G"
            + " (K, M, G, T are powers of 1024). Default: the free space of DIR's file system plus the shards already there.")
    String cacheLimit;
    @Option(names = "--parallel", paramLabel = "N", defaultValue = "8", description = "Shards downloaded at once, 1-64 (default ${DEFAULT-VALUE}).")
    int parallel;
    @Option(names = "--extract", description = "Also unpack every member into DIR/members/<path>, each checked against its member manifest.")
    boolean extract;
    @Option(names = "--json", description = "Print the report as one line of JSON: dataset, revision, shards, shardBytes,"
            + " cached, fetched, retried, bytesDownloaded, seconds, failures, extractedMembers, dir.")
    boolean json;

    @Override
    public Integer call() {
        NameArguments.require("--dataset", dataset);
        NameArguments.require("--revision", revision);
        if (parallel < 1 || parallel > 64) {
            throw new CliException(CliException.USAGE, "--parallel must be between 1 and 64, not " + parallel);
        }
        Path dir = to.toAbsolutePath().normalize();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new CliException(CliException.USAGE, "--to " + dir + " is not a directory");
        }
        Long limit = cacheLimit == null ? null : ByteCount.parse("--cache-limit", cacheLimit);
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        FetchReport report = run(session.stack(), dir, limit);
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>(EventCodecMap.of(report));
            out.put("dir", dir.toString());
            JsonOut.print(out);
        } else {
            System.out.println(dir.resolve("shards"));
        }
        return report.complete() ? 0 : CliException.FAILED;
    }

    /** Runs the fetch against {@code stack}'s primary bucket; throws {@link CliException} (exit 1) on a failure. */
    FetchReport run(StackEndpoints stack, Path dir, Long limit) {
        Progress progress = new Progress(System.err, json);
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        try (S3ObjectReader reader = new S3ObjectReader(config, ReadTuning.defaults(), HttpBackend.APACHE);
             ShardCache cache = ShardCache.open(dir, limit != null ? limit : defaultLimit(dir))) {
            DatasetFetcher fetcher = new DatasetFetcher(reader, cache, parallel);
            DatasetManifest manifest = fetcher.manifest(dataset, revision);
            long total = manifest.shards().stream().mapToLong(ShardEntry::bytes).sum();
            progress.step("fetching " + dataset + "@" + revision + ": " + Inputs.count(manifest.shards().size(), "shard")
                    + ", " + ByteCount.human(total) + ", " + parallel + " at a time, into " + dir.resolve("shards"));
            FetchProgressBar bar = new FetchProgressBar(System.err, total, manifest.shards().size(),
                    System.console() != null, json);
            FetchReport report = fetcher.fetchAll(manifest, bar);
            bar.finish();
            progress.detail(report.fetched() + " fetched, " + report.cached() + " already cached, "
                    + ByteCount.human(report.bytesDownloaded()) + " in " + String.format(java.util.Locale.ROOT, "%.1f s",
                    report.seconds()) + (report.failures().isEmpty() ? "" : ", " + report.failures().size() + " FAILED"));
            if (extract && report.complete()) {
                progress.step("extracting members into " + dir.resolve("members"));
                report = report.withExtractedMembers(fetcher.extractAll(manifest, dir.resolve("members")));
                progress.detail(report.extractedMembers() + " members written, each SHA-256 equal to its member manifest");
            }
            return report;
        } catch (ManifestException | CacheFullException | StoreException e) {
            throw new CliException(CliException.FAILED, e.getMessage(), e);
        } catch (MemberMismatchException e) {
            throw new CliException(CliException.FAILED, "extraction refused: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new CliException(CliException.FAILED, e.getMessage(), e);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write into " + dir + ": " + e.getMessage(), e);
        }
    }

    /** @return the free space of {@code dir}'s file system (of its nearest existing ancestor) plus the shards there */
    private static long defaultLimit(Path dir) throws IOException {
        Path existing = dir;
        while (!Files.exists(existing)) {
            existing = existing.getParent();
        }
        long cached = 0;
        Path shards = dir.resolve("shards");
        if (Files.isDirectory(shards)) {
            try (Stream<Path> files = Files.list(shards)) {
                for (Path f : files.toList()) {
                    cached += Files.size(f);
                }
            }
        }
        return Math.max(1, Files.getFileStore(existing).getUsableSpace() + cached);
    }

    /** The report's fields as a map, in record order, for the JSON line. */
    private static final class EventCodecMap {
        static Map<String, Object> of(FetchReport report) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = io.stowage.events.EventCodec.mapper().convertValue(report, LinkedHashMap.class);
            map.remove("complete");
            map.put("complete", report.complete());
            return map;
        }
    }
}
