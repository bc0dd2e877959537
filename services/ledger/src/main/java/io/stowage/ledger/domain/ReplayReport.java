package io.stowage.ledger.domain;

import java.util.List;
import java.util.Map;

/**
 * Answer of {@code POST /api/audit/replay}: what a replay of every topic into a fresh projection schema read,
 * and every row on which it disagrees with the live projections.
 *
 * @param schema        the PostgreSQL schema the replay was written into
 * @param kept          true when that schema was kept for inspection, false when it was dropped after the compare
 * @param scope         the asset-id (or release request-id) text the compare was limited to (asset ids or release request ids containing it); "" for everything
 * @param records       records read from the topics (up to the end offsets at the start of the replay)
 * @param events        distinct events applied
 * @param duplicates    records whose event id was seen before (redelivery)
 * @param undecodable   records that do not decode (the live ledger dead-letters them)
 * @param unprojected   events of a type with no projection
 * @param liveCaughtUp  true when the live consumer group had committed every record of the snapshot before the
 *                      compare; when false, differences may only mean the live ledger was still behind
 * @param rows          rows written per projection table of the replay schema
 * @param seconds       wall-clock time of the whole replay, seconds
 * @param identical     true when no difference was found
 * @param differences   every disagreeing row, ordered by table and key
 */
public record ReplayReport(String schema, boolean kept, String scope, long records, long events, long duplicates,
                           long undecodable, long unprojected, boolean liveCaughtUp, Map<String, Long> rows,
                           double seconds, boolean identical, List<ProjectionDifference> differences) {
}
