package io.stowage.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the {@code stowage} command in-process, as end-to-end tests drive it: {@link StowageCli#execute} with standard
 * output and error captured (UTF-8) and echoed afterwards to the test's own streams, so a failing test's log shows what
 * the user would have seen. Calls are serialised: {@code System.out} and {@code System.err} are process-wide.
 */
public final class CliRun {
    private CliRun() {
    }

    /**
     * @param exit the command's exit code (0 ok, {@link CliException#USAGE} bad input, {@link CliException#FAILED})
     * @param out  what it printed on standard output
     * @param err  what it printed on standard error
     */
    public record Result(int exit, String out, String err) {
    }

    /**
     * Runs {@code stowage args…} with the system property {@code stowage.home} set to {@code home} for the call (the
     * directory the CLI keeps its session in), restoring the previous value afterwards.
     *
     * @return the exit code and output
     */
    public static synchronized Result runWithHome(java.nio.file.Path home, String... args) {
        String saved = System.getProperty("stowage.home");
        System.setProperty("stowage.home", home.toString());
        try {
            return run(args);
        } finally {
            if (saved == null) {
                System.clearProperty("stowage.home");
            } else {
                System.setProperty("stowage.home", saved);
            }
        }
    }

    /** @return the exit code and output of {@code stowage args…} */
    public static synchronized Result run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(stdout, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(stderr, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            exit = StowageCli.execute(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        Result result = new Result(exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
        System.out.print(result.out());
        System.err.print(result.err());
        return result;
    }
}
