package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * {@code stowage audit}: checks of the ledger's own trail. {@code audit verify-chain} consumes the ledger's
 * {@code GET /api/audit/chain} (the whole hash chain recomputed by the ledger) and produces one line, or the
 * answer as JSON with {@code --json}; exit 0 when the chain verifies, 1 when it is broken or the ledger cannot answer.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, description = "Audit the ledger's trail.",
        subcommands = {AuditCommand.VerifyChain.class, AuditStoreCommand.class, AuditReplayCommand.class,
                AuditArchiveCommand.class, AuditLifecycleCommand.class, AuditRereadCommand.class})
public final class AuditCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * The ledger's chain report: rows read, whether every link verified, and where and why it first broke.
     *
     * @param firstBrokenSeq     seq of the first broken link, null when ok
     * @param firstBrokenEventId event id at that seq, null when ok or when the row is missing
     */
    record ChainReport(long rows, boolean ok, Long firstBrokenSeq, String firstBrokenEventId, String reason) {
    }

    /** {@code stowage audit verify-chain [--json]}. */
    @Command(name = "verify-chain", mixinStandardHelpOptions = true,
            description = "Recompute the ledger's hash chain and name the first broken link (exit 1 when broken).")
    static final class VerifyChain implements Callable<Integer> {
        @Option(names = "--json", description = "Print the ledger's report as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            ChainReport report = new HttpJson().get(session.serviceUrl("ledger").resolve("/api/audit/chain"), ChainReport.class)
                    .orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/audit/chain"));
            if (json) {
                JsonOut.print(report);
            } else if (report.ok()) {
                System.out.printf("chain of %d events verified%n", report.rows());
            } else {
                System.out.printf("chain broken at event %s (seq %d): %s%n",
                        report.firstBrokenEventId() != null ? report.firstBrokenEventId() : "(missing)",
                        report.firstBrokenSeq(), report.reason());
            }
            return report.ok() ? 0 : CliException.FAILED;
        }
    }
}
