package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.cli.retention.domain.RetentionPolicy;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the checkpoint step {@code model promote} copies, from what the ledger knows of the run's steps
 * ({@code GET /api/checkpoints/steps}): the step named by {@code --step}, the step best by a metric among the run's
 * verified steps ({@code --best METRIC --mode min|max}), or the step the run's {@code latest.json} names
 * ({@code --latest}, the step retention keeps as {@code latest}). Pure: the same steps give the same choice.
 */
public final class StepChoice {
    private StepChoice() {
    }

    /**
     * One stored step as the ledger knows it.
     *
     * @param verified counts as verified for retention ({@code StepVerification}); an expired step is not a candidate
     * @param metrics  metric name → value as published; never null
     */
    public record Candidate(long step, boolean verified, Map<String, Double> metrics) {
        public Candidate {
            metrics = Map.copyOf(metrics);
        }
    }

    /**
     * The chosen step and why, as {@code model promote --json} prints it.
     *
     * @param selector "step", "best" or "latest"
     * @param reason   one sentence naming the rule that chose it
     * @param metric   the metric ranked by (--best only, else null)
     * @param value    the chosen step's value of it (--best only, else null)
     */
    public record Choice(long step, String selector, String reason, String metric, Double value) {
    }

    /** @return the step named on the command line */
    public static Choice step(long step) {
        return new Choice(step, "step", "named by --step", null, null);
    }

    /** @return the step the run's latest.json names (read from the store by the caller) */
    public static Choice latest(long step) {
        return new Choice(step, "latest", "the step the run's latest.json names", null, null);
    }

    /**
     * The best verified step by {@code metric}: lowest for {@link RetentionPolicy.Mode#MIN}, highest for
     * {@link RetentionPolicy.Mode#MAX}; on a tie the newest (highest-numbered) step. Unverified steps and steps without
     * the metric (or with NaN) are not ranked — the same ranking as retention's keep-best.
     *
     * @param run the run's name as {@code E/R}, for the error message
     * @throws CliException exit 1 naming the metric when no verified step has it recorded
     */
    public static Choice best(String run, List<Candidate> steps, String metric, RetentionPolicy.Mode mode) {
        List<Candidate> ranked = steps.stream().filter(Candidate::verified)
                .filter(s -> s.metrics().containsKey(metric) && !s.metrics().get(metric).isNaN()).toList();
        Comparator<Candidate> byMetric = Comparator.comparingDouble(s -> s.metrics().get(metric));
        if (mode == RetentionPolicy.Mode.MAX) {
            byMetric = byMetric.reversed();
        }
        Optional<Candidate> best = ranked.stream()
                .min(byMetric.thenComparing(Comparator.comparingLong(Candidate::step).reversed()));
        if (best.isEmpty()) {
            long verified = steps.stream().filter(Candidate::verified).count();
            throw new CliException(CliException.FAILED, "cannot promote the best step of " + run + " by '" + metric
                    + "': none of its " + verified + " verified step(s) (of " + steps.size() + ") has the metric '"
                    + metric + "' recorded (checkpoint publish --metric " + metric + "=VALUE or metrics.json)");
        }
        Candidate c = best.get();
        String lowHigh = mode == RetentionPolicy.Mode.MAX ? "highest" : "lowest";
        return new Choice(c.step(), "best", lowHigh + " " + metric + " (" + c.metrics().get(metric) + ") among "
                + ranked.size() + " verified step(s) with it; a tie goes to the newest step", metric, c.metrics().get(metric));
    }
}
