package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.events.ProtectedRoots;
import io.stowage.events.ledger.ReleaseOutcome;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Asks the gatekeeper's API ({@code POST /api/releases}, operator token) to release one directory and
 * waits, through the ledger, for the gate's decision and the provider-adapter's release. Deletion itself only ever
 * happens in the provider-adapter, after {@code gate.passed}.
 */
public final class ReleaseRequester {
    private final GatekeeperClient gatekeeper;
    private final LedgerClient ledger;
    private final ProtectedRoots protectedRoots;

    /**
     * @param gatekeeper     the gatekeeper's base URL (session {@code gatekeeper})
     * @param protectedRoots the roots the running services protect; refused here before anything is sent
     */
    public ReleaseRequester(URI gatekeeper, LedgerClient ledger, ProtectedRoots protectedRoots) {
        this.gatekeeper = new GatekeeperClient(gatekeeper);
        this.ledger = ledger;
        this.protectedRoots = protectedRoots;
    }

    /**
     * @param dir    the directory to release; made absolute and normalised, never resolved through a symlink
     * @param dryRun evaluate the gate only
     * @return the outcome as the ledger recorded it
     * @throws CliException (exit 2) when {@code dir} is not an existing directory, is a symlink, or is
     *                      {@code /}, a protected root or an ancestor of one; (exit 3) when the gatekeeper refuses the
     *                      token (none, unknown, or not an operator's), which it records as {@code release.refused}
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
        GatekeeperClient.Accepted accepted = gatekeeper.request(target, dryRun);
        return ledger.awaitRelease(accepted.requestId(), timeout);
    }
}
