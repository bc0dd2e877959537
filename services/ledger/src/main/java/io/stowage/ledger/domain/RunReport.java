package io.stowage.ledger.domain;

import java.math.BigDecimal;
import java.util.List;

/**
 * What one training run took and cost, as {@code GET /api/runs/accounting?experiment=E&run=R} serves it (seconds,
 * bytes, US dollars to 6 decimals).
 *
 * @param verdict                  "running", "finished", "stopped at cap", "stopped", "failed", "preempted", "not started"
 * @param lastStep                 the newest attempt's last step, null when no attempt is known
 * @param wallSeconds              wall time summed over the attempts
 * @param trainingSeconds          effective training time (optimizer steps) summed over the attempts
 * @param dataWaitSeconds          time the trainer waited for data, summed
 * @param checkpointWriteSeconds   time the trainer was blocked writing checkpoints, summed
 * @param checkpointOverhead       each verified step from its publication to its verification
 * @param interruptions            every preemption and failure, oldest first
 * @param lostUsd                  what the interruptions cost in pod time, null when no pod price is known
 * @param podsUsdPerHour           the hourly cost of the run's pods (those created with the attempts' resources id)
 * @param checkpointBytes          bytes the run's unexpired checkpoint steps hold in the store
 * @param attempts                 every attempt, oldest first
 */
public record RunReport(String experiment, String run, String verdict, int attemptCount, Long lastStep,
                        double wallSeconds, double trainingSeconds, double dataWaitSeconds,
                        double checkpointWriteSeconds, CheckpointOverhead checkpointOverhead,
                        List<Interruption> interruptions, BigDecimal lostUsd, BigDecimal podsUsdPerHour,
                        long checkpointBytes, List<RunAttemptRecord> attempts) {

    /**
     * @param verifiedSteps   steps whose every primary object is verified
     * @param unverifiedSteps steps still waiting for an upload or verification (not counted in the seconds)
     * @param totalSeconds    sum over the verified steps of (verified − published)
     * @param maxSeconds      the longest of them
     */
    public record CheckpointOverhead(int verifiedSteps, int unverifiedSteps, double totalSeconds, double maxSeconds) {
    }

    /**
     * @param kind        "preempted" or "failed"
     * @param lostSeconds the attempt's seconds after its last checkpoint published within it
     * @param lostUsd     those seconds at the pods' hourly cost, null when unknown
     */
    public record Interruption(String attemptId, String kind, String reason, long step, double lostSeconds,
                               BigDecimal lostUsd) {
    }
}
