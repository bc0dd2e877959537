package io.stowage.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs one external command to its end with a given environment; produces its standard output and error,
 * merged.
 */
public final class ExternalCommand {
    private ExternalCommand() {
    }

    /**
     * @param command the program and its arguments
     * @param set     environment variables to set (on top of this JVM's environment)
     * @param unset   environment variables to remove, e.g. {@code AWS_CA_BUNDLE} for rclone
     * @param workDir the working directory
     * @return everything the command printed
     * @throws IOException when it cannot be started or exits other than 0 (the message carries its output's end)
     */
    public static String run(List<String> command, Map<String, String> set, Set<String> unset, Path workDir)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        builder.environment().keySet().removeAll(unset);
        builder.environment().putAll(set);
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + exit + ": " + tail(output));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + command.get(0), e);
        }
        return output;
    }

    /**
     * The output of a command run by {@link #runTimed} and the CPU time it and its children used.
     *
     * @param output     everything the command printed
     * @param cpuSeconds user + system CPU seconds of the command and its children, from bash's {@code times}
     */
    public record Timed(String output, double cpuSeconds) {
    }

    /**
     * As {@link #run}, under a bash that prints its children's CPU times (builtin {@code times}) on a last line
     * of their own after the command ends.
     *
     * @throws IOException as {@link #run}, or when that last line is missing
     */
    public static Timed runTimed(List<String> command, Map<String, String> set, Set<String> unset, Path workDir)
            throws IOException {
        List<String> wrapped = new java.util.ArrayList<>(List.of("bash", "-c",
                "\"$@\"; rc=$?; echo; echo '@cpu'; times; exit $rc", "timed"));
        wrapped.addAll(command);
        String output = run(wrapped, set, unset, workDir);
        int at = output.lastIndexOf("\n@cpu\n");
        List<String> lines = at < 0 ? List.of() : output.substring(at + 6).lines().toList();
        if (lines.size() != 2) {
            throw new IOException("no CPU times after " + command.get(0) + ": " + output);
        }
        // times prints the shell's own user and system time, then its children's
        String[] times = lines.get(1).trim().split("\\s+");
        return new Timed(output.substring(0, at), bashSeconds(times[0]) + bashSeconds(times[1]));
    }

    /** @return seconds of a bash {@code times} field such as {@code 1m2.345s} */
    static double bashSeconds(String field) {
        int m = field.indexOf('m');
        return Integer.parseInt(field.substring(0, m)) * 60 + Double.parseDouble(field.substring(m + 1, field.length() - 1));
    }

    /** @return the first line {@code command} prints, or {@code "unavailable: <reason>"} */
    public static String firstLine(List<String> command) {
        try {
            String output = run(command, Map.of(), Set.of(), Path.of("."));
            return output.lines().findFirst().orElse("").trim();
        } catch (IOException e) {
            return "unavailable: " + e.getMessage();
        }
    }

    private static String tail(String output) {
        return output.length() <= 2000 ? output : "…" + output.substring(output.length() - 2000);
    }
}
