package io.stowage.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Consumes contenders and an input set; produces one {@link Measurement} per contender: every contender runs
 * {@code warmups} untimed times, then the timed runs are interleaved (run 1 of each tool, then run 2 of each, …)
 * so that a burst of load from other processes on a shared machine does not land on one tool only.
 */
public final class Trials {
    private final int warmups;
    private final int runs;
    private final PrintStream log;

    /**
     * @param warmups untimed runs per contender, at least 0
     * @param runs    timed runs per contender, at least 1
     * @param log     where each run's time is printed as it ends
     */
    public Trials(int warmups, int runs, PrintStream log) {
        this.warmups = warmups;
        this.runs = runs;
        this.log = log;
    }

    /**
     * @return one measurement per contender, in the order given
     * @throws Exception the first failure of a contender (a wrong read ends the benchmark)
     */
    public List<Measurement> measure(List<Contender> contenders, InputSet input) throws Exception {
        for (Contender contender : contenders) {
            for (int i = 1; i <= warmups; i++) {
                double[] run = time(contender, input);
                log.printf("  warm-up %d  %-40s %-14s %7.2f s  %6.2f s CPU%n", i, contender.name(), input.label(), run[0], run[1]);
            }
        }
        Map<Contender, List<Double>> times = new LinkedHashMap<>();
        Map<Contender, List<Double>> cpu = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (Contender contender : contenders) {
                double[] timed = time(contender, input);
                times.computeIfAbsent(contender, c -> new ArrayList<>()).add(timed[0]);
                cpu.computeIfAbsent(contender, c -> new ArrayList<>()).add(timed[1]);
                log.printf("  run %d      %-40s %-14s %7.2f s  %6.2f s CPU%n", run, contender.name(), input.label(),
                        timed[0], timed[1]);
            }
        }
        List<Measurement> result = new ArrayList<>();
        times.forEach((contender, seconds) -> result.add(new Measurement(contender.name(), input, seconds,
                cpu.get(contender))));
        return result;
    }

    /** @return wall-clock seconds and client CPU seconds of one {@link Contender#readAll} */
    private static double[] time(Contender contender, InputSet input) throws Exception {
        long started = System.nanoTime();
        double cpuSeconds = contender.readAll(input);
        return new double[] {(System.nanoTime() - started) / 1e9, cpuSeconds};
    }
}
