package io.stowage.ledger.domain;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The ledger's retention view of one checkpoint step, built from checkpoint.published, checkpoint.pinned and
 * checkpoint.expired. Events of one step may arrive in any order across topics: each sets only the fields it knows.
 *
 * @param metrics          metric name → value as published; empty until published
 * @param tags             the step's tags as published; empty until published
 * @param publishedAt      time of the checkpoint.published event; null until seen
 * @param fileCount        files in the step as published (each is one object per store); 0 until published
 * @param totalBytes       their bytes as published; 0 until published
 * @param pinned           the newest pin or unpin event says pinned
 * @param pinEventId       that event's id; null when never pinned or unpinned
 * @param expiredEventId   the checkpoint.expired event's id; null while the step is stored
 * @param expiredBytes     bytes that expiry deleted (every store); 0 while stored
 * @param leaseUntil       the latest {@code leaseUntil} of the step's leases (fetches for a resume); null when never
 *                         leased. A lease that ran out stays recorded: whether it still holds is the reader's question.
 * @param retention        the retention policy the run's capsule stated at this step's publish; null when none (or
 *                         not yet published)
 */
public record CheckpointStepRecord(String assetId, String experiment, String run, long step,
                                   Map<String, Double> metrics, List<String> tags, Instant publishedAt,
                                   String publishedEventId, int fileCount, long totalBytes, boolean pinned, String pinEventId, Instant pinAt,
                                   String expiredEventId, Instant expiredAt, long expiredBytes, Instant leaseUntil,
                                   io.stowage.events.RetentionDecided.Policy retention) {

    /** @return a step known only by its identity */
    public static CheckpointStepRecord empty(String assetId, String experiment, String run, long step) {
        return new CheckpointStepRecord(assetId, experiment, run, step, Map.of(), List.of(), null, null, 0, 0, false, null,
                null, null, null, 0, null, null);
    }
}
