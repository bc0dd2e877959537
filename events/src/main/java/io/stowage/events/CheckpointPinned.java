package io.stowage.events;

/**
 * An operator pinned (or unpinned) one stored checkpoint step: a pinned step is never expired by retention, whatever
 * the run's policy. Produced by the CLI ({@code stowage checkpoint pin|unpin}, operator token) on
 * {@link Topics#CHECKPOINT_PINNED}; consumed by the ledger. The Kafka key is the step's
 * {@link AssetIds#checkpoint(String, String, long)}, so it stays ordered with the step's other events.
 *
 * @param pinned      true for a pin, false for an unpin (the newest event of the step wins)
 * @param requestedBy who asked (the operator name from the environment)
 */
public record CheckpointPinned(EventMeta meta, String experiment, String run, long step, boolean pinned,
                               String requestedBy) implements StowageEvent {

    public static CheckpointPinned of(EventMeta meta, String experiment, String run, long step, boolean pinned,
                                      String requestedBy) {
        CheckpointPinned event = new CheckpointPinned(meta, experiment, run, step, pinned, requestedBy);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.checkpoint(experiment, run, step);
    }

    @Override
    public String topic() {
        return Topics.CHECKPOINT_PINNED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.requireNonNegative("step", step);
        Validation.requireText("requestedBy", requestedBy);
    }
}
