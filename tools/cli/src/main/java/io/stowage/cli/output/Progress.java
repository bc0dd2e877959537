package io.stowage.cli.output;

import java.io.PrintStream;

/** Progress lines for long work, on standard error so that {@code --json} output stays clean. */
public final class Progress {
    private final PrintStream out;
    private final boolean quiet;

    public Progress(PrintStream out, boolean quiet) {
        this.out = out;
        this.quiet = quiet;
    }

    /** Prints {@code ==> message} unless quiet. */
    public void step(String message) {
        if (!quiet) {
            out.println("==> " + message);
            out.flush();
        }
    }

    /** Prints an indented detail line unless quiet. */
    public void detail(String message) {
        if (!quiet) {
            out.println("    " + message);
            out.flush();
        }
    }

    /** Prints a warning line, even when quiet. */
    public void warn(String message) {
        out.println("warning: " + message);
        out.flush();
    }
}
