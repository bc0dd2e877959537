package io.stowage.events;

/**
 * One attempt of a training run started (a first start or a resume after a stop, a preemption or a failure).
 * Produced by the CLI's {@code stowage watch} from the trainer's run file ({@code .stowage-run.jsonl}, docs/runs.md)
 * on {@link Topics#RUN_STARTED}; consumed by the ledger, which accounts the run's time and cost per attempt.
 *
 * @param attemptId       the trainer's id of this attempt (unique within the run); progress and finish name it
 * @param resumedFromStep the checkpoint step the attempt resumed from, null for a first start
 * @param resources       the provider run id its pods and volumes were created with ({@code --run}), null when unknown;
 *                        the ledger prices lost time from those pods' hourly cost
 */
public record RunStarted(EventMeta meta, String experiment, String run, String attemptId, Long resumedFromStep,
                         String resources) implements StowageEvent {

    public static RunStarted of(EventMeta meta, String experiment, String run, String attemptId, Long resumedFromStep,
                                String resources) {
        RunStarted event = new RunStarted(meta, experiment, run, attemptId, resumedFromStep, resources);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.run(experiment, run);
    }

    @Override
    public String topic() {
        return Topics.RUN_STARTED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.requireSegment("attemptId", attemptId);
        Validation.require(resumedFromStep == null || resumedFromStep >= 0, "resumedFromStep must not be negative");
        Validation.require(resources == null || Validation.isSegment(resources), "resources is not a valid run id: " + resources);
    }
}
