package io.stowage.events;

/**
 * How far one attempt of a training run is: its step and its {@link RunTimes} so far. Produced by the CLI's
 * {@code stowage watch} from the trainer's run file on {@link Topics#RUN_PROGRESS}; consumed by the ledger (the
 * newest progress of an attempt wins).
 *
 * @param step the last optimizer step done
 */
public record RunProgress(EventMeta meta, String experiment, String run, String attemptId, long step, RunTimes times)
        implements StowageEvent {

    public static RunProgress of(EventMeta meta, String experiment, String run, String attemptId, long step, RunTimes times) {
        RunProgress event = new RunProgress(meta, experiment, run, attemptId, step, times);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.run(experiment, run);
    }

    @Override
    public String topic() {
        return Topics.RUN_PROGRESS;
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
    }
}
