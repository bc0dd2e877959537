package io.stowage.ledger.api;

import io.stowage.ledger.domain.AssetSummary;

import java.util.List;

/**
 * One page of {@code GET /api/assets}: assets in asset-id order (byte order).
 *
 * @param assets at most the requested limit
 * @param next   the asset id to pass as {@code after} for the next page; null on the last page
 */
public record AssetPage(List<AssetSummary> assets, String next) {

    /** @param rows up to {@code limit + 1} rows; @return the first {@code limit}, with {@code next} when a row follows */
    static AssetPage of(List<AssetSummary> rows, int limit) {
        if (rows.size() <= limit) {
            return new AssetPage(List.copyOf(rows), null);
        }
        List<AssetSummary> page = List.copyOf(rows.subList(0, limit));
        return new AssetPage(page, page.get(limit - 1).assetId());
    }
}
