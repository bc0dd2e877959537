package io.stowage.ledger.domain;

import io.stowage.events.ModelPublished;

/**
 * Folds model.published into a {@link ModelPromotionRecord}: a revision published from a checkpoint step
 * ({@code fromCheckpoint} set) links to that step. A revision never changes, so the first event that links it wins and a
 * later one (a redelivery, a publish again after a missing file) leaves the link as it is.
 */
public final class ModelPromotionProjection {
    private ModelPromotionProjection() {
    }

    /**
     * @param current the stored link of the revision, or null when none
     * @return the link after the event; null when there is none (a revision published from a directory)
     */
    public static ModelPromotionRecord apply(ModelPromotionRecord current, ModelPublished e) {
        if (current != null || e.fromCheckpoint() == null || e.fromCheckpoint().isBlank()) {
            return current;
        }
        return new ModelPromotionRecord(e.assetId(), e.fromCheckpoint(), e.meta().eventId(), e.meta().time());
    }
}
