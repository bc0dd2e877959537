package io.stowage.events;

import java.util.Set;

/**
 * One attempt of a training run ended, with its outcome: {@code completed} (the planned last step was reached),
 * {@code stopped} (a stop request or a cap: reason {@code cap-reached}, {@code wall-time}, ...), {@code failed} (an
 * error; reason says which) or {@code preempted} (the provider took the machine). Produced by the CLI's
 * {@code stowage watch} from the trainer's run file on {@link Topics#RUN_FINISHED}; consumed by the ledger. An attempt
 * that never finishes and is followed by another is counted as preempted by the ledger.
 *
 * @param step   the last optimizer step done
 * @param reason free text, e.g. {@code cap-reached} or the exception's message; null for a completed attempt
 */
public record RunFinished(EventMeta meta, String experiment, String run, String attemptId, long step, RunTimes times,
                          String outcome, String reason) implements StowageEvent {

    /** The outcomes a trainer may report. */
    public static final Set<String> OUTCOMES = Set.of("completed", "stopped", "failed", "preempted");

    public static RunFinished of(EventMeta meta, String experiment, String run, String attemptId, long step,
                                 RunTimes times, String outcome, String reason) {
        RunFinished event = new RunFinished(meta, experiment, run, attemptId, step, times, outcome, reason);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.run(experiment, run);
    }

    @Override
    public String topic() {
        return Topics.RUN_FINISHED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.requireSegment("attemptId", attemptId);
        Validation.requireNonNegative("step", step);
        Validation.require(times != null, "times is missing");
        times.validate();
        Validation.require(OUTCOMES.contains(outcome), "outcome must be one of " + OUTCOMES + ": " + outcome);
    }
}
