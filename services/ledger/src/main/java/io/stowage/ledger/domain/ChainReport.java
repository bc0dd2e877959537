package io.stowage.ledger.domain;

/**
 * The answer of a chain verification ({@code GET /api/audit/chain}).
 *
 * @param rows               rows read, up to the chain head as it was when the check began
 * @param ok                 true when every link and the head agree with a recomputation
 * @param firstBrokenSeq     seq of the first broken link (for missing rows: the first missing seq), null when ok
 * @param firstBrokenEventId event id stored at that seq, null when ok or when the row is missing
 * @param reason             what is wrong there, null when ok
 */
public record ChainReport(long rows, boolean ok, Long firstBrokenSeq, String firstBrokenEventId, String reason) {
}
