package io.stowage.bench;

import java.util.List;

/**
 * The timed runs of one tool on one input set: wall-clock and client CPU seconds of each run, and their medians.
 *
 * @param tool       the {@link Contender#name()}
 * @param input      the set read
 * @param seconds    wall-clock seconds of each timed run, in run order
 * @param cpuSeconds client CPU seconds (user + system) of each timed run, in run order (see {@link Contender#readAll})
 */
public record Measurement(String tool, InputSet input, List<Double> seconds, List<Double> cpuSeconds) {

    public Measurement {
        if (seconds.isEmpty() || seconds.size() != cpuSeconds.size()) {
            throw new IllegalArgumentException("a measurement needs at least one run, with its CPU time");
        }
        seconds = List.copyOf(seconds);
        cpuSeconds = List.copyOf(cpuSeconds);
    }

    /** @return the median of {@link #seconds()} (the mean of the middle two for an even count) */
    public double medianSeconds() {
        return median(seconds);
    }

    /** @return the median of {@link #cpuSeconds()} */
    public double medianCpuSeconds() {
        return median(cpuSeconds);
    }

    /** @return the input's bytes in MiB divided by {@link #medianSeconds()} */
    public double mibPerSecond() {
        return input.totalBytes() / (1024.0 * 1024.0) / medianSeconds();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
