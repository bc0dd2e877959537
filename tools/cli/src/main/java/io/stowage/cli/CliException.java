package io.stowage.cli;

/**
 * A failure the user must see as one line on standard error, with the exit code to end with
 * ({@link #USAGE} for bad input, {@link #FAILED} for a failed operation, {@link #DENIED} for a
 * release the gate refused).
 */
public class CliException extends RuntimeException {
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int DENIED = 3;

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
