package io.stowage.gatekeeper.domain;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gatekeeper's record of every decision it has sent: fed with the decisions read back from {@code gate.passed}
 * and {@code gate.denied} (each authentic record once, keyed by its event id, which derives from the request's event
 * id: {@link GateAnswer#decisionId}), and asked, before a request is evaluated, whether that request was decided
 * already. The first decision read for an id stays; a later one with the same id changes nothing. The journal only
 * answers for a moment its reader has caught up with: the reader reports, after each pass, the time (in
 * {@link System#nanoTime()} units) at which it took the end offsets it has now read up to, and a question asked
 * after that time gets {@link Lookup.Status#UNKNOWN} until a newer pass completes. Thread-safe: one reader thread
 * records, any thread asks.
 */
public final class DecisionJournal {
    /** Where a decision was read: its event id, topic, partition and offset. */
    public record Entry(String decisionId, String topic, int partition, long offset) {
    }

    /**
     * The answer for one decision id.
     *
     * @param entry the first decision read with that id, only when {@code status} is {@code DECIDED}
     */
    public record Lookup(Status status, Entry entry) {
        /** DECIDED: a decision was sent; NONE: none was sent before the question; UNKNOWN: the reader has not caught up. */
        public enum Status { DECIDED, NONE, UNKNOWN }
    }

    private final Map<String, Entry> first = new ConcurrentHashMap<>();
    private volatile long caughtUpAsOf = Long.MIN_VALUE;
    private volatile boolean everCaughtUp;

    /** @return true when this is the first decision read with its id (it is kept), false when one was read before */
    public boolean record(Entry decision) {
        return first.putIfAbsent(decision.decisionId(), decision) == null;
    }

    /**
     * @param endsTakenAt {@link System#nanoTime()} when the reader took the end offsets of every partition of the
     *                    decision topics that it has now read up to
     */
    public void caughtUp(long endsTakenAt) {
        if (!everCaughtUp || endsTakenAt - caughtUpAsOf > 0) {
            caughtUpAsOf = endsTakenAt;
            everCaughtUp = true;
        }
    }

    /**
     * @param decisionId {@link GateAnswer#decisionId} of the request
     * @param askedAt    {@link System#nanoTime()} when the question arose (the request is in hand): every decision
     *                   the broker acknowledged before it must have been read
     * @return DECIDED with the first entry, NONE, or UNKNOWN while the reader has not read up to ends taken at or
     *         after {@code askedAt}
     */
    public Lookup lookup(String decisionId, long askedAt) {
        if (!everCaughtUp || caughtUpAsOf - askedAt < 0) {
            return new Lookup(Lookup.Status.UNKNOWN, null);
        }
        return Optional.ofNullable(first.get(decisionId)).map(e -> new Lookup(Lookup.Status.DECIDED, e))
                .orElse(new Lookup(Lookup.Status.NONE, null));
    }

    /** @return how many distinct decision ids have been read */
    public int size() {
        return first.size();
    }
}
