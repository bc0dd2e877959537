package io.stowage.events;

/**
 * The time of one run attempt so far, as the trainer measured it (seconds, cumulative from the attempt's start).
 *
 * @param wallSeconds       wall-clock seconds since the attempt started
 * @param trainingSeconds   seconds spent in optimizer steps (forward, backward, update): the effective training time
 * @param dataWaitSeconds   seconds the trainer waited for data (loading, decoding, prefetch stalls)
 * @param checkpointSeconds seconds the trainer was blocked writing checkpoints (temporary name, fsync, rename)
 */
public record RunTimes(double wallSeconds, double trainingSeconds, double dataWaitSeconds, double checkpointSeconds) {

    void validate() {
        Validation.require(wallSeconds >= 0 && trainingSeconds >= 0 && dataWaitSeconds >= 0 && checkpointSeconds >= 0,
                "times must not be negative");
        Validation.require(Double.isFinite(wallSeconds + trainingSeconds + dataWaitSeconds + checkpointSeconds),
                "times must be finite");
    }
}
