package io.stowage.events.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the ledger knows of one checkpoint step for retention: the step's gate evidence (every object in every store
 * with its newest HEAD and full-read results) plus its metrics, tags, pin and expiry. Part of
 * {@code GET /api/checkpoints/steps}.
 *
 * @param step           the step number
 * @param asset          the step's asset evidence ({@code checkpoint/<E>/<R>/<step>}); never null
 * @param fileCount      files as published (0 when the ledger holds the step from before retention was recorded)
 * @param totalBytes     their bytes as published
 * @param metrics        metric name → value as published; empty when none
 * @param tags           tags as published; empty when none
 * @param publishedAt    time of checkpoint.published; null when unknown
 * @param pinned         an operator's newest pin or unpin event says pinned
 * @param expiredEventId the checkpoint.expired event's id; null while stored
 * @param expiredBytes   bytes the expiry deleted; 0 while stored
 * @param promotedTo     the model revisions promoted from this step ({@code model/<model>/<revision>}, ascending), from
 *                       the model.published events that name it in {@code fromCheckpoint}; empty when none (never null)
 * @param leasedUntil    the latest end of the step's fetch leases (UTC, set by the gatekeeper's clock); null when never
 *                       leased. Retention keeps the step while this is after its evaluation time.
 */
public record CheckpointStepEvidence(long step, AssetEvidence asset, int fileCount, long totalBytes,
                                     Map<String, Double> metrics, List<String> tags, Instant publishedAt,
                                     boolean pinned, String expiredEventId, Instant expiredAt, long expiredBytes,
                                     List<String> promotedTo, Instant leasedUntil) {
    public CheckpointStepEvidence {
        promotedTo = promotedTo == null ? List.of() : List.copyOf(promotedTo);
    }

    /** Evidence of a step never leased. */
    public CheckpointStepEvidence(long step, AssetEvidence asset, int fileCount, long totalBytes,
                                  Map<String, Double> metrics, List<String> tags, Instant publishedAt,
                                  boolean pinned, String expiredEventId, Instant expiredAt, long expiredBytes,
                                  List<String> promotedTo) {
        this(step, asset, fileCount, totalBytes, metrics, tags, publishedAt, pinned, expiredEventId, expiredAt,
                expiredBytes, promotedTo, null);
    }

    /**
     * @param now the evaluation time
     * @return true when a lease holds the step at {@code now}
     */
    public boolean leasedAt(Instant now) {
        return leasedUntil != null && leasedUntil.isAfter(now);
    }

    /** Evidence of a step no model revision names (the shape before promotions were projected). */
    public CheckpointStepEvidence(long step, AssetEvidence asset, int fileCount, long totalBytes,
                                  Map<String, Double> metrics, List<String> tags, Instant publishedAt,
                                  boolean pinned, String expiredEventId, Instant expiredAt, long expiredBytes) {
        this(step, asset, fileCount, totalBytes, metrics, tags, publishedAt, pinned, expiredEventId, expiredAt,
                expiredBytes, List.of(), null);
    }
}
