package io.stowage.ledger.domain;

/**
 * One line of {@code GET /api/assets} (the listing; {@code ?id=} gives the full evidence of one asset).
 *
 * @param kind      "dataset" or "checkpoint"
 * @param localRoot the asset's absolute local directory, null until known
 * @param revision  dataset revision, null for a checkpoint
 */
public record AssetSummary(String assetId, String kind, String localRoot, boolean sealed, boolean keyCheckpoint,
                           String revision) {
}
