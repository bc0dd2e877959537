package io.stowage.cli.command;

import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ReleaseRequester;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.ReleaseReport;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.ProtectedRoots;
import io.stowage.events.ledger.ReleaseOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code stowage release DIR [--dry-run] [--json]}: ask the gate to release one directory and print its plan
 * (each asset, each condition with pass/fail and evidence event ids, the files and bytes that would be freed);
 * exit 3 when the gate denied it, 4 when a service refused the token (missing, unknown, expired, or not an operator's),
 * 1 when an approved release was refused.
 */
@Command(name = "release", mixinStandardHelpOptions = true, description = "Delete DIR only if the five-condition gate passes (exit 3 when denied).")
public final class ReleaseCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The one archived directory to release.")
    Path dir;
    @Option(names = "--dry-run", description = "Evaluate the gate only; delete nothing.")
    boolean dryRun;
    @Option(names = "--json", description = "Print the plan as one line of JSON: assets, the five conditions with evidence ids, files and bytes.")
    boolean json;

    @Override
    public Integer call() {
        ReleaseRequester.target(dir); // a path whose '..' follows a symlink is refused before anything is read or sent
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        // through the gatekeeper's API: an operator token is required (exit 4 otherwise, and the refusal is recorded)
        ReleaseOutcome outcome = new ReleaseRequester(session.serviceUrl("gatekeeper"),
                new LedgerClient(session.serviceUrl("ledger")), ProtectedRoots.parse(session.protectedRoots()))
                .release(dir, dryRun, Duration.ofMinutes(30));
        if (json) {
            JsonOut.print(ReleaseReport.json(outcome));
        } else {
            System.out.print(ReleaseReport.table(outcome));
        }
        return ReleaseReport.exitCode(outcome);
    }
}
