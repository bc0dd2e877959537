package io.stowage.cli;

import io.stowage.events.ledger.LedgerStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code stowage status}: what the ledger holds. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Show what the ledger holds: events, objects, verifications, gate decisions.")
final class StatusCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the status as one line of JSON.")
    boolean json;

    @Override
    public Integer call() {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        LedgerStatus status = new LedgerClient(session.serviceUrl("ledger")).status();
        if (json) {
            JsonOut.print(status);
        } else {
            System.out.printf("events %d (dead letters %d)%nassets %d%nobjects %d: %d HEAD-verified, %d re-read in full%n"
                            + "gate: %d passed, %d denied%nreleases %d%n", status.events(), status.deadLetters(), status.assets(),
                    status.objects(), status.objectsVerified(), status.objectsFullRead(), status.gatesPassed(),
                    status.gatesDenied(), status.releases());
        }
        return 0;
    }
}
