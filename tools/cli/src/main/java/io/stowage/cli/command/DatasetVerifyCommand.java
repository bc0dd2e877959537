package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.NameArguments;
import io.stowage.cli.dataset.DatasetVerifyReport;
import io.stowage.cli.dataset.LocalShards;
import io.stowage.cli.dataset.ShardChecker;
import io.stowage.cli.dataset.ShardToCheck;
import io.stowage.cli.dataset.StoreShards;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code stowage dataset verify}: re-reads shards, local ({@code --path}) or from the primary store
 * ({@code --dataset D --revision R}), and checks every member against its member manifest and every shard against its
 * content address. Prints one line per shard and a summary (or one JSON object with {@code --json}); exits 0 when all
 * are good, 1 when any shard is truncated, corrupt or differs (the line names shard and member), 2 on bad options.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Re-read shards (local files or the store) and check every member against its member manifest.")
final class DatasetVerifyCommand implements Callable<Integer> {
    @Option(names = "--path", paramLabel = "DIR_OR_FILE", description = "A shard (*.tar.zst, its *.members.jsonl beside it) or a directory of shards.")
    Path path;
    @Option(names = "--dataset", description = "Dataset name, to read its shards from the primary store (needs 'stowage up').")
    String dataset;
    @Option(names = "--revision", description = "Dataset revision (with --dataset).")
    String revision;
    @Option(names = "--json", description = "Print the result as one line of JSON.")
    boolean json;

    @Override
    public Integer call() {
        boolean store = dataset != null || revision != null;
        if (store == (path != null) || store && (dataset == null || revision == null)) {
            throw new CliException(CliException.USAGE, "give either --path DIR_OR_FILE or --dataset D --revision R");
        }
        long started = System.nanoTime();
        Progress progress = new Progress(System.err, json);
        DatasetVerifyReport report;
        if (store) {
            NameArguments.require("--dataset", dataset);
            NameArguments.require("--revision", revision);
            StackEndpoints stack = Session.readFrom(StowageHome.fromEnvironment().session()).stack();
            try (S3ObjectReader reader = new S3ObjectReader(new StoreConfig("primary", URI.create(stack.s3Endpoint()),
                    stack.s3Region(), stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()),
                    ReadTuning.defaults(), HttpBackend.APACHE)) {
                report = check(dataset + "/" + revision, new StoreShards(reader).find(dataset, revision), progress, started);
            }
        } else {
            report = check(path.toAbsolutePath().normalize().toString(), LocalShards.find(path), progress, started);
        }
        if (json) {
            JsonOut.print(report);
        } else {
            System.out.println(report.source() + ": " + report.shardsOk() + " of " + report.shards().size()
                    + " shards good, " + report.memberBytes() + " member bytes read in " + String.format("%.1f", report.seconds()) + " s");
        }
        if (report.shardsFailed() > 0) {
            DatasetVerifyReport.ShardLine first = report.shards().stream().filter(s -> !s.ok()).findFirst().orElseThrow();
            System.err.println("stowage: " + report.shardsFailed() + " of " + report.shards().size() + " shards failed; first: "
                    + first.shard() + ": " + first.problems().get(0));
            return CliException.FAILED;
        }
        return 0;
    }

    private DatasetVerifyReport check(String source, List<ShardToCheck> shards, Progress progress, long started) {
        ShardChecker checker = new ShardChecker();
        List<DatasetVerifyReport.ShardLine> lines = new ArrayList<>(shards.size());
        long memberBytes = 0;
        int ok = 0;
        for (int i = 0; i < shards.size(); i++) {
            progress.step("shard " + (i + 1) + "/" + shards.size() + ": " + shards.get(i).name());
            DatasetVerifyReport.ShardLine line = checker.check(shards.get(i));
            lines.add(line);
            memberBytes += line.memberBytes();
            ok += line.ok() ? 1 : 0;
            if (!json) {
                System.out.println(line(line));
            }
        }
        return new DatasetVerifyReport(source, lines, ok, shards.size() - ok, memberBytes,
                (System.nanoTime() - started) / 1e9);
    }

    private static String line(DatasetVerifyReport.ShardLine line) {
        String head = (line.ok() ? "OK     " : "FAILED ") + line.shard() + "  " + line.members() + " members, "
                + line.memberBytes() + " bytes";
        StringBuilder out = new StringBuilder(head);
        line.problems().forEach(p -> out.append(System.lineSeparator()).append("         ").append(p));
        return out.toString();
    }
}
