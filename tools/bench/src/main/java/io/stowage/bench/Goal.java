package io.stowage.bench;

import java.util.List;
import java.util.Optional;

/**
 * One speed goal of the issue: on input {@code inputLabel}, {@code tool} must be at least {@code minRatio} times
 * as fast as {@code reference}; consumes measurements, produces a {@link Verdict}.
 *
 * @param tool       the tool held to the goal (a {@link Contender#name()})
 * @param inputLabel the {@link InputSet#label()} it applies to
 * @param reference  the tool compared against
 * @param minRatio   the least acceptable ratio of speeds (reference's median seconds / tool's median seconds)
 */
public record Goal(String tool, String inputLabel, String reference, double minRatio) {

    /**
     * The outcome of a goal.
     *
     * @param goal  the goal
     * @param ratio the measured ratio of speeds
     * @param met   whether {@code ratio >= goal.minRatio()}
     */
    public record Verdict(Goal goal, double ratio, boolean met) {
    }

    /** @return the verdict, or empty when the tool or the reference was not measured on that input */
    public Optional<Verdict> evaluate(List<Measurement> measurements) {
        Optional<Measurement> subject = find(measurements, tool);
        Optional<Measurement> versus = find(measurements, reference);
        if (subject.isEmpty() || versus.isEmpty()) {
            return Optional.empty();
        }
        double ratio = versus.get().medianSeconds() / subject.get().medianSeconds();
        return Optional.of(new Verdict(this, ratio, ratio >= minRatio));
    }

    /** @return e.g. {@code ≥ 0.8× rclone check --download} */
    public String describe() {
        return "≥ " + minRatio + "× " + reference;
    }

    private Optional<Measurement> find(List<Measurement> measurements, String name) {
        return measurements.stream()
                .filter(m -> m.tool().equals(name) && m.input().label().equals(inputLabel))
                .findFirst();
    }
}
