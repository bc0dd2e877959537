package io.stowage.verifier.domain;

import io.stowage.events.ledger.ScrubCandidate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses what one scrub tick re-reads: consumes the ledger's objects in scrub order (never re-read first, oldest
 * upload first, then least recently re-read first) and the byte allowance, and produces the objects to read, in that
 * order. It takes objects while any allowance is left (the last one may overdraw it, see {@link ScrubBudget}) and
 * stops at the first object re-read less than half a period ago: everything after it in the order is fresher still,
 * and reading it now would only spend budget early. With a budget of at least (bytes of the store ÷ period) the
 * cycle therefore re-reads every object within the period.
 */
public final class ScrubPlan {
    private ScrubPlan() {
    }

    /**
     * @param due       the ledger's objects in scrub order
     * @param allowance bytes this tick may read ({@link ScrubBudget#refill})
     * @param now       the tick's instant
     * @param period    every object is to be re-read within it, positive
     * @return the objects to re-read now, a prefix of {@code due}
     */
    public static List<ScrubCandidate> choose(List<ScrubCandidate> due, long allowance, Instant now, Duration period) {
        Instant fresh = now.minus(period.dividedBy(2));
        List<ScrubCandidate> chosen = new ArrayList<>();
        long left = allowance;
        for (ScrubCandidate c : due) {
            if (left <= 0 || (c.lastFullReadAt() != null && c.lastFullReadAt().isAfter(fresh))) {
                break;
            }
            chosen.add(c);
            left -= c.bytes();
        }
        return chosen;
    }

    /** @return the FULL_READ detail of a scrub read: why this object was read now */
    public static String reason(ScrubCandidate c) {
        return c.lastFullReadAt() == null
                ? "scrub: never re-read (uploaded " + c.uploadedAt() + ")"
                : "scrub: least recently re-read (last " + c.lastFullReadAt() + ", " + c.lastFullReadResult() + ")";
    }
}
