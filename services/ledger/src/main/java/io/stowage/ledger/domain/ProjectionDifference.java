package io.stowage.ledger.domain;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One projection row on which the live ledger and a replay disagree.
 *
 * @param table   the projection table, e.g. {@code ledger_object}
 * @param assetId the asset the row belongs to (null for a release request, which has none)
 * @param key     the row's key within its table: the asset id, {@code store/bucket/key}, the event id of an
 *                upload failure, or the request id of a release
 * @param live    the live row as JSON (column name to value), null when only the replay has it
 * @param replay  the replayed row as JSON, null when only the live ledger has it
 */
public record ProjectionDifference(String table, String assetId, String key, JsonNode live, JsonNode replay) {
}
