package io.stowage.ledger.domain;

/**
 * Recomputes the chain row by row: consumes {@link ChainEntry} values in seq order, then the head, and
 * produces a {@link ChainReport} naming the first broken link. Each link is recomputed from the previous
 * row's stored hash, so one edited row is reported at its own seq, not at every row after it.
 */
public final class ChainVerifier {
    private long rows;
    private long expectedSeq = 1;
    private String previous = EventChain.GENESIS;
    private ChainReport broken; // rows is filled in by finish

    /** Checks one row: its seq must follow the previous one by 1, its hash must be the recomputed link. */
    public void accept(ChainEntry entry) {
        rows++;
        if (broken != null) {
            return;
        }
        if (entry.seq() != expectedSeq) {
            fail(expectedSeq, entry.seq() > expectedSeq ? null : entry.event().eventId(),
                    "seq " + entry.seq() + " found where " + expectedSeq + " was expected: rows are missing or were renumbered");
        } else if (!EventChain.link(previous, entry.seq(), entry.event()).equals(entry.chainHash())) {
            fail(entry.seq(), entry.event().eventId(),
                    "chain_hash differs from the hash of the previous link and the row's canonical JSON: the row was changed");
        }
        previous = entry.chainHash();
        expectedSeq = entry.seq() + 1;
    }

    /**
     * @param headSeq  seq recorded in the chain head when the check began (0 for an empty chain)
     * @param headHash link recorded in the chain head
     * @return the verdict over every row accepted
     */
    public ChainReport finish(long headSeq, String headHash) {
        if (broken == null && (headSeq != expectedSeq - 1 || !headHash.equals(previous))) {
            fail(expectedSeq - 1 < headSeq ? expectedSeq : headSeq, null, "the chain head is at seq " + headSeq
                    + " but the rows end at seq " + (expectedSeq - 1) + " with another link: rows were deleted or the head was changed");
        }
        return broken != null
                ? new ChainReport(rows, false, broken.firstBrokenSeq(), broken.firstBrokenEventId(), broken.reason())
                : new ChainReport(rows, true, null, null, null);
    }

    private void fail(long seq, String eventId, String reason) {
        broken = new ChainReport(0, false, seq, eventId, reason);
    }
}
