package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.events.ProtectedRoots;
import io.stowage.events.ledger.ReleaseOutcome;

import java.io.IOException;
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
     * The path a release sends to the gate: {@code dir} made absolute and normalised, refused when the normalised text
     * names another directory than the path leads to. Removing {@code x/..} textually is only right when {@code x} is
     * no symlink: {@code a/link/../step} names {@code a/step} as text but leads to the step beside the link's target.
     * So a path with a {@code ..} segment is resolved as the kernel does ({@link Path#toRealPath}, symlinks before
     * {@code ..}) and must reach the same directory as its normalised text does, else it is refused. A path without
     * {@code ..} is only normalised (the gate itself refuses one that goes through a symlink: {@code symlink-in-path}).
     *
     * @param dir the directory as the user gave it, relative to the working directory or absolute
     * @return the absolute, normalised path
     * @throws CliException (exit 2) naming both paths when the path with its {@code ..} resolved leads elsewhere than
     *                      its text, or when such a path cannot be resolved
     */
    public static Path target(Path dir) {
        Path absolute = dir.toAbsolutePath();
        Path normalised = absolute.normalize();
        boolean climbs = false;
        for (Path segment : absolute) {
            climbs |= "..".equals(segment.toString());
        }
        if (!climbs) {
            return normalised;
        }
        Path real;
        Path named;
        try {
            real = absolute.toRealPath();
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "refusing " + absolute + ": it cannot be resolved with its '..' ("
                    + e.getMessage() + "); name the directory without '..'");
        }
        try {
            named = normalised.toRealPath();
        } catch (IOException e) {
            named = null;
        }
        if (!real.equals(named)) {
            throw new CliException(CliException.USAGE, "refusing " + absolute + ": it leads to " + real + " but reads as "
                    + normalised + " (a symlink before '..'); name the directory without '..'");
        }
        return normalised;
    }

    /**
     * @param dir    the directory to release; made absolute and normalised by {@link #target} (refused when that
     *               changes which directory it names), never resolved through a symlink
     * @param dryRun evaluate the gate only
     * @return the outcome as the ledger recorded it
     * @throws CliException (exit 2) when {@code dir} is refused by {@link #target}, is not an existing directory, is a
     *                      symlink, or is {@code /}, a protected root or an ancestor of one; (exit 3) when the
     *                      gatekeeper refuses the token (none, unknown, or not an operator's), which it records as
     *                      {@code release.refused}
     */
    public ReleaseOutcome release(Path dir, boolean dryRun, Duration timeout) {
        Path target = target(dir);
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
