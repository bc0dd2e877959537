package io.stowage.cli;

import io.stowage.events.ProtectedRoots;
import io.stowage.events.ledger.ReleaseOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code stowage release DIR [--dry-run]}: ask the gate to release one directory; exit 3 when denied. */
@Command(name = "release", mixinStandardHelpOptions = true, description = "Delete DIR only if the five-condition gate passes (exit 3 when denied).")
final class ReleaseCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The one archived directory to release.")
    Path dir;
    @Option(names = "--dry-run", description = "Evaluate the gate only; delete nothing.")
    boolean dryRun;
    @Option(names = "--json", description = "Print the outcome as one line of JSON.")
    boolean json;

    @Override
    public Integer call() {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        ReleaseOutcome outcome;
        try (EventPublisher publisher = new EventPublisher(session.stack().kafkaBootstrapServers())) {
            outcome = new ReleaseRequester(publisher, new LedgerClient(session.serviceUrl("ledger")), Clock.systemUTC(),
                    ProtectedRoots.parse(session.protectedRoots())).release(dir, dryRun, Duration.ofMinutes(30));
        }
        if (json) {
            JsonOut.print(outcome);
        } else if ("denied".equals(outcome.gate())) {
            System.out.println("denied " + outcome.path());
            outcome.failed().forEach(f -> System.out.printf("  condition %d (%s): %s%n", f.condition(), f.code(), f.detail()));
        } else if (outcome.dryRun()) {
            System.out.println("gate passed (dry run, nothing deleted): " + outcome.path());
        } else if (outcome.released()) {
            System.out.println("released " + outcome.path());
        } else {
            System.out.println("gate passed but the release was refused: " + outcome.failureReason());
        }
        if ("denied".equals(outcome.gate())) {
            return CliException.DENIED;
        }
        return outcome.dryRun() || outcome.released() ? 0 : CliException.FAILED;
    }
}
