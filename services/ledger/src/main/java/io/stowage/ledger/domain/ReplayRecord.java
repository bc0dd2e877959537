package io.stowage.ledger.domain;

import java.time.Instant;

/**
 * One completed audit replay as the ledger records it ({@code GET /api/audit/replays}): the summary of its
 * {@link ReplayReport}, without the differing rows.
 *
 * @param finishedAt   when the replay's report was made
 * @param requestedBy  the operator token's name
 * @param scope        the asset-id text the compare was limited to; "" for everything
 * @param identical    true when no difference was found
 * @param liveCaughtUp false when the live consumer group was behind the snapshot (differences may then be lag)
 * @param records      records read from the topics
 * @param events       distinct events applied
 * @param differences  rows on which replay and live projections disagree
 * @param seconds      wall-clock time of the replay
 */
public record ReplayRecord(Instant finishedAt, String requestedBy, String scope, boolean identical,
                           boolean liveCaughtUp, long records, long events, int differences, double seconds) {
    /** @return the summary of {@code report}, finished at {@code at}, asked by {@code requestedBy} */
    public static ReplayRecord of(ReplayReport report, String requestedBy, Instant at) {
        return new ReplayRecord(at, requestedBy, report.scope(), report.identical(), report.liveCaughtUp(),
                report.records(), report.events(), report.differences().size(), report.seconds());
    }
}
