package io.stowage.cli;

import io.stowage.events.EventMeta;
import io.stowage.events.ProtectedRoots;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ledger.ReleaseOutcome;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * Sends one {@code volume.release.requested} for a directory and waits, through the ledger, for
 * the gate's decision and the provider-adapter's release. Deletion itself only ever happens in
 * the provider-adapter, after {@code gate.passed}.
 */
public final class ReleaseRequester {
    private final EventPublisher publisher;
    private final LedgerClient ledger;
    private final Clock clock;
    private final ProtectedRoots protectedRoots;

    /** @param protectedRoots the roots the running services protect; refused here before anything is sent */
    public ReleaseRequester(EventPublisher publisher, LedgerClient ledger, Clock clock, ProtectedRoots protectedRoots) {
        this.publisher = publisher;
        this.ledger = ledger;
        this.clock = clock;
        this.protectedRoots = protectedRoots;
    }

    /**
     * @param dir    the directory to release; made absolute and normalised, never resolved through a symlink
     * @param dryRun evaluate the gate only
     * @return the outcome as the ledger recorded it
     * @throws CliException (exit 2) when {@code dir} is not an existing directory, is a symlink, or is
     *                      {@code /}, a protected root or an ancestor of one
     */
    public ReleaseOutcome release(Path dir, boolean dryRun, Duration timeout) {
        Path target = dir.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(target)) {
            throw new CliException(CliException.USAGE, target + " is a symlink: release the directory itself");
        }
        Inputs.requireReadableDirectory("release target", target);
        if (protectedRoots.protects(target)) {
            throw new CliException(CliException.USAGE, target + " is protected (the root, a volume or workspace root, or"
                    + " one of their ancestors): release one archived directory inside it");
        }
        String requestId = UUID.randomUUID().toString();
        String operator = System.getenv().getOrDefault("USER", System.getProperty("user.name", "operator"));
        publisher.publish(ReleaseRequested.of(EventMeta.first(requestId, clock), requestId, target.toString(), dryRun, operator));
        return ledger.awaitRelease(requestId, timeout);
    }
}
