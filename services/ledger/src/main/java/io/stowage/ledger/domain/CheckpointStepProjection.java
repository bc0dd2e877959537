package io.stowage.ledger.domain;

import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointPinned;
import io.stowage.events.CheckpointPublished;

/**
 * Folds checkpoint.published, checkpoint.pinned and checkpoint.expired into a {@link CheckpointStepRecord}. A pin and
 * an unpin of the same step are ordered by event time (the newer wins; equal times keep the current state, so a
 * redelivery changes nothing); a lease (a checkpoint.pinned with {@code leaseUntil}) touches neither and only moves the
 * step's lease end later (the latest end wins, in any order of arrival); an expiry is final. The publish carries the
 * capsule's retention policy, kept per step.
 */
public final class CheckpointStepProjection {
    private CheckpointStepProjection() {
    }

    /** @param current the stored step, or null when the ledger has not seen it yet */
    public static CheckpointStepRecord apply(CheckpointStepRecord current, CheckpointPublished e) {
        CheckpointStepRecord s = orEmpty(current, e.assetId(), e.experiment(), e.run(), e.step());
        return new CheckpointStepRecord(s.assetId(), s.experiment(), s.run(), s.step(), e.metrics(), e.tags(),
                e.meta().time(), e.meta().eventId(), e.fileCount(), e.totalBytes(), s.pinned(), s.pinEventId(), s.pinAt(), s.expiredEventId(),
                s.expiredAt(), s.expiredBytes(), s.leaseUntil(), e.retention());
    }

    /** @param current the stored step, or null when the ledger has not seen it yet */
    public static CheckpointStepRecord apply(CheckpointStepRecord current, CheckpointPinned e) {
        CheckpointStepRecord s = orEmpty(current, e.assetId(), e.experiment(), e.run(), e.step());
        if (e.isLease()) {
            if (s.leaseUntil() != null && !e.leaseUntil().isAfter(s.leaseUntil())) {
                return s;
            }
            return new CheckpointStepRecord(s.assetId(), s.experiment(), s.run(), s.step(), s.metrics(), s.tags(),
                    s.publishedAt(), s.publishedEventId(), s.fileCount(), s.totalBytes(), s.pinned(), s.pinEventId(),
                    s.pinAt(), s.expiredEventId(), s.expiredAt(), s.expiredBytes(), e.leaseUntil(), s.retention());
        }
        if (s.pinAt() != null && !e.meta().time().isAfter(s.pinAt())) {
            return s;
        }
        return new CheckpointStepRecord(s.assetId(), s.experiment(), s.run(), s.step(), s.metrics(), s.tags(),
                s.publishedAt(), s.publishedEventId(), s.fileCount(), s.totalBytes(), e.pinned(), e.meta().eventId(), e.meta().time(),
                s.expiredEventId(), s.expiredAt(), s.expiredBytes(), s.leaseUntil(), s.retention());
    }

    /** @param current the stored step, or null when the ledger has not seen it yet */
    public static CheckpointStepRecord apply(CheckpointStepRecord current, CheckpointExpired e) {
        CheckpointStepRecord s = orEmpty(current, e.assetId(), e.experiment(), e.run(), e.step());
        if (s.expiredEventId() != null) {
            return s;
        }
        return new CheckpointStepRecord(s.assetId(), s.experiment(), s.run(), s.step(), s.metrics(), s.tags(),
                s.publishedAt(), s.publishedEventId(), s.fileCount(), s.totalBytes(), s.pinned(), s.pinEventId(), s.pinAt(),
                e.meta().eventId(),
                e.meta().time(), e.totalBytes(), s.leaseUntil(), s.retention());
    }

    private static CheckpointStepRecord orEmpty(CheckpointStepRecord current, String assetId, String experiment,
                                                String run, long step) {
        return current != null ? current : CheckpointStepRecord.empty(assetId, experiment, run, step);
    }
}
