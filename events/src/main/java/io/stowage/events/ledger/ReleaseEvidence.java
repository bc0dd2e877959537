package io.stowage.events.ledger;

import java.util.List;

/**
 * Answer of {@code GET /api/evidence?path=<absolute dir>}: every asset whose local root is the
 * path, lies under it, or contains it.
 */
public record ReleaseEvidence(String path, List<AssetEvidence> assets) {
}
