package io.stowage.provideradapter.domain.retention;

import io.stowage.events.StowageEvent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes retention decisions ({@link RetentionExecutor}) and sends each outcome (every checkpoint.expired, then any
 * retention.refused) through a {@link Sender}, marking a journaled outcome sent once Kafka acknowledged all of it. A
 * send that fails leaves a journaled outcome unsent, so {@link #retry} sends it again with the same event ids (at start
 * and on a timer). One lock is held from executing a decision to sending its outcome, and over a whole retry, so the
 * timer never sends an outcome the request is still sending, nor one outcome twice; an outcome answered again for a
 * replayed decision is sent again on purpose (same event ids; the ledger stores each once).
 */
public final class RetentionDelivery {
    private static final System.Logger LOG = System.getLogger(RetentionDelivery.class.getName());

    private final RetentionExecutor executor;
    private final Sender sender;

    /** Sends events in order, each acknowledged before the next; throws when one is not acknowledged. */
    @FunctionalInterface
    public interface Sender {
        /** @throws RuntimeException when an event was not acknowledged (a journaled outcome is then sent again) */
        void sendAll(List<StowageEvent> events);
    }

    public RetentionDelivery(RetentionExecutor executor, Sender sender) {
        this.executor = executor;
        this.sender = sender;
    }

    /**
     * Executes one decision and sends its outcome.
     *
     * @param value     the retention.decided value exactly as signed
     * @param signature the hex HMAC, null when absent
     * @return what was executed (also when its journaled outcome could not be sent now: the journal sends it later)
     * @throws io.stowage.events.InvalidEventException when the value is not a valid RetentionDecided
     * @throws RuntimeException the send's failure when the outcome is in no journal entry (nothing would send it again)
     */
    public synchronized RetentionExecutor.Outcome execute(byte[] value, String signature) {
        RetentionExecutor.Outcome outcome = executor.execute(value, signature);
        deliver(outcome);
        return outcome;
    }

    /**
     * Finishes interrupted decisions ({@link RetentionExecutor#recover}) and sends every outcome not yet acknowledged.
     *
     * @return how many outcomes were acknowledged now
     */
    public synchronized int retry() {
        int sent = 0;
        for (RetentionExecutor.Outcome outcome : executor.recover()) {
            if (executor.awaitingAck(outcome.decision().meta().eventId()) && deliver(outcome)) {
                sent++;
            }
        }
        return sent;
    }

    private boolean deliver(RetentionExecutor.Outcome outcome) {
        String decisionId = outcome.decision().meta().eventId();
        List<StowageEvent> events = new ArrayList<>(outcome.expired());
        outcome.refused().ifPresent(events::add);
        try {
            sender.sendAll(events);
        } catch (RuntimeException e) {
            if (!executor.journaled(decisionId)) {
                throw e;
            }
            LOG.log(System.Logger.Level.WARNING, "sending the outcome of retention.decided event " + decisionId
                    + " failed; sent again from the retention journal", e);
            return false;
        }
        try {
            executor.markSent(decisionId);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot mark the outcome of retention.decided event " + decisionId
                    + " sent; it will be sent once more (same event ids)", e);
        }
        return true;
    }
}
