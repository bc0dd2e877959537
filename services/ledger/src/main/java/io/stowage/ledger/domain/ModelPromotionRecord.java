package io.stowage.ledger.domain;

import java.time.Instant;

/**
 * The ledger's link from a model revision to the checkpoint step it was promoted from, built from
 * {@code model.published} when it names {@code fromCheckpoint}.
 *
 * @param modelAssetId      {@code model/<model>/<revision>}
 * @param checkpointAssetId {@code checkpoint/<E>/<R>/<step>}, the step the revision's files were copied from
 * @param eventId           the id of the model.published that set the link
 * @param promotedAt        that event's time
 */
public record ModelPromotionRecord(String modelAssetId, String checkpointAssetId, String eventId, Instant promotedAt) {
}
