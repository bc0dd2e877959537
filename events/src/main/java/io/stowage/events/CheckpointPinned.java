package io.stowage.events;

import java.time.Instant;

/**
 * An operator pinned (or unpinned) one stored checkpoint step, or a fetch leased it: retention never expires a pinned
 * step, whatever the run's policy, nor a step whose lease has not run out. Sent by the gatekeeper in the bearer token's
 * name ({@code stowage checkpoint pin|unpin}, operator token: {@code POST /api/checkpoints/pins}; {@code stowage
 * checkpoint fetch}, reader or operator token: {@code POST /api/checkpoints/leases}) on
 * {@link Topics#CHECKPOINT_PINNED}; consumed by the ledger. The Kafka key is the step's
 * {@link AssetIds#checkpoint(String, String, long)}, so it stays ordered with the step's other events.
 *
 * @param pinned      true for a pin or a lease, false for an unpin (of pins and unpins, the newest event of the step
 *                    wins; a lease neither sets nor lifts the pin)
 * @param requestedBy who asked (the bearer token's name)
 * @param leaseUntil  for a lease, the instant (UTC) until which the step is kept, the gatekeeper's clock at the request
 *                    plus the lease's duration; null for a pin or unpin. Absent in events written before leases.
 */
public record CheckpointPinned(EventMeta meta, String experiment, String run, long step, boolean pinned,
                               String requestedBy, Instant leaseUntil) implements StowageEvent {

    /** A pin ({@code pinned} true) or an unpin (false). */
    public static CheckpointPinned of(EventMeta meta, String experiment, String run, long step, boolean pinned,
                                      String requestedBy) {
        CheckpointPinned event = new CheckpointPinned(meta, experiment, run, step, pinned, requestedBy, null);
        event.validate();
        return event;
    }

    /**
     * A lease: keep the step until {@code until}.
     *
     * @throws InvalidEventException when a field is invalid or {@code until} is not after the event's time
     */
    public static CheckpointPinned lease(EventMeta meta, String experiment, String run, long step, String requestedBy,
                                         Instant until) {
        CheckpointPinned event = new CheckpointPinned(meta, experiment, run, step, true, requestedBy, until);
        event.validate();
        return event;
    }

    /** @return true for a lease, false for a pin or unpin */
    public boolean isLease() {
        return leaseUntil != null;
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
        if (leaseUntil != null) {
            Validation.require(pinned, "a lease keeps its step: pinned must be true");
            Validation.require(leaseUntil.isAfter(meta.time()), "leaseUntil must be after the event's time");
        }
    }
}
