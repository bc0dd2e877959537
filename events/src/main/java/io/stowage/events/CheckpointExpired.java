package io.stowage.events;

import java.util.List;

/**
 * Retention deleted every object of one checkpoint step from every store and confirmed each gone (a HEAD answered not
 * found). Produced by the provider-adapter's retention executor (the one component allowed to delete under
 * {@code checkpoints/}), caused by the {@code retention.decided} it executed, on
 * {@link Topics#CHECKPOINT_EXPIRED}; consumed by the ledger, which marks the step and its objects expired.
 *
 * @param planSha256 SHA-256 of the plan (canonical JSON) that was re-evaluated from the ledger at apply time
 * @param objects    every deleted object: store, bucket, key and bytes; never empty
 * @param totalBytes sum of the objects' bytes
 */
public record CheckpointExpired(EventMeta meta, String experiment, String run, long step, String planSha256,
                                List<ExpiredObject> objects, long totalBytes, String requestedBy) implements StowageEvent {

    /** One deleted object. */
    public record ExpiredObject(String store, String bucket, String key, long bytes) {
    }

    public static CheckpointExpired of(EventMeta meta, String experiment, String run, long step, String planSha256,
                                       List<ExpiredObject> objects, String requestedBy) {
        CheckpointExpired event = new CheckpointExpired(meta, experiment, run, step, planSha256, List.copyOf(objects),
                objects.stream().mapToLong(ExpiredObject::bytes).sum(), requestedBy);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.checkpoint(experiment, run, step);
    }

    @Override
    public String topic() {
        return Topics.CHECKPOINT_EXPIRED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.requireNonNegative("step", step);
        Validation.requireSha256("planSha256", planSha256);
        Validation.require(objects != null && !objects.isEmpty(), "objects is missing");
        String prefix = "checkpoints/" + experiment + "/" + run + "/" + ObjectKeys.paddedStep(step) + "/";
        for (ExpiredObject o : objects) {
            Validation.require(o.key() != null && o.key().startsWith(prefix), "object " + o.key() + " is not under " + prefix);
            Validation.requireText("store", o.store());
            Validation.requireNonNegative("bytes", o.bytes());
        }
        Validation.requireText("requestedBy", requestedBy);
    }
}
