package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.audit.LifecycleAudit;
import io.stowage.cli.audit.LifecycleReport;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.BucketLifecycleReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code stowage audit lifecycle [--resume-window PT24H] [--json]}: consumes the lifecycle configuration of the
 * session's primary and replica buckets (GetBucketLifecycleConfiguration) and produces per bucket a summary line and
 * one line per rule that could remove what Stowage keeps ({@link LifecycleAudit}); exit 0 when clean, 1 on any warning
 * or when a configuration cannot be read.
 */
@Command(name = "lifecycle", mixinStandardHelpOptions = true,
        description = "Warn about bucket lifecycle rules that could delete what retention keeps (exit 1 on any).")
final class AuditLifecycleCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the reports as one line of JSON.")
    boolean json;

    @Option(names = "--resume-window", defaultValue = "PT24H", description = "How long the uploader may resume an "
            + "interrupted upload: its stowage.uploader.abandon-uploads-after (default ${DEFAULT-VALUE}).")
    Duration resumeWindow;

    @Override
    public Integer call() {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        StackEndpoints stack = session.stack();
        List<LifecycleReport> reports = List.of(audit(config(stack, "primary", stack.primaryBucket())),
                audit(config(stack, "replica", stack.replicaBucket())));
        if (json) {
            JsonOut.print(reports);
        } else {
            for (LifecycleReport report : reports) {
                System.out.println(report.summary());
                report.findings().forEach(f -> System.out.println(report.line(f)));
            }
        }
        return reports.stream().allMatch(LifecycleReport::clean) ? 0 : CliException.FAILED;
    }

    private LifecycleReport audit(StoreConfig config) {
        return LifecycleAudit.audit(config.name(), config.bucket(), BucketLifecycleReader.read(config), resumeWindow);
    }

    private static StoreConfig config(StackEndpoints stack, String name, String bucket) {
        return new StoreConfig(name, URI.create(stack.s3Endpoint()), stack.s3Region(), bucket, stack.s3AccessKey(),
                stack.s3SecretKey());
    }
}
