package io.stowage.cli;

/**
 * A failure the user must see as one line on standard error, with the exit code to end with
 * ({@link #USAGE} for bad input, {@link #FAILED} for a failed operation or a thing the ledger does not know,
 * {@link #DENIED} for a release the gate denied, {@link #UNAUTHORISED} for a token a service refused, in any command).
 */
public class CliException extends RuntimeException {
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int DENIED = 3;
    /** A service answered 401 (no, malformed, unknown, revoked or expired bearer token) or 403 (a role too low), in any command. */
    public static final int UNAUTHORISED = 4;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** @return the process exit code for this failure */
    public int exitCode() {
        return exitCode;
    }
}
