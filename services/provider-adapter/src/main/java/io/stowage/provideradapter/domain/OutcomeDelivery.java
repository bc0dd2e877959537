package io.stowage.provideradapter.domain;

import io.stowage.events.StowageEvent;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Sends release outcomes through an {@link OutcomeSender} and marks each acknowledged one sent in the journal
 * ({@link ReleaseHandler#markSent}). A send that fails leaves a journaled outcome unsent, so {@link #retry} sends
 * it again with the same event id (at start and on a timer); it is never a reason to dead-letter the gate.passed.
 * Synchronized, and {@link #release} holds the lock from the journaled release to the send, so the timer's
 * {@link #retry} can neither send an outcome the consumer is about to send (the journal holds it unsent in between)
 * nor send one outcome at the same time; an outcome the consumer answers again for a redelivered request is sent
 * again on purpose (same event id, consumers are idempotent).
 */
public final class OutcomeDelivery {
    private static final System.Logger LOG = System.getLogger(OutcomeDelivery.class.getName());

    private final ReleaseHandler handler;
    private final OutcomeSender sender;

    public OutcomeDelivery(ReleaseHandler handler, OutcomeSender sender) {
        this.handler = handler;
        this.sender = sender;
    }

    /**
     * What {@link #release} did with one gate decision.
     *
     * @param outcome      the release's outcome (volume.released or volume.release.failed, or the refusal of an
     *                     unauthentic decision); empty for an authentic dry run, which executes and sends nothing
     * @param acknowledged true when the broker acknowledged the outcome's send
     */
    public record Released(Optional<StowageEvent> outcome, boolean acknowledged) {
    }

    /**
     * Executes one gate decision through {@link ReleaseHandler#handle} and sends its outcome ({@link #deliver}),
     * under one lock: the timer's {@link #retry} waits until the outcome was sent and marked, so it is sent once.
     *
     * @param value     the gate.passed record's raw value
     * @param signature its {@code stowage-signature} header, or null when absent
     * @throws RuntimeException what {@link ReleaseHandler#handle} or {@link #deliver} throws
     */
    public synchronized Released release(byte[] value, String signature) {
        Optional<StowageEvent> outcome = handler.handle(value, signature);
        return new Released(outcome, outcome.isPresent() && deliver(outcome.get()));
    }

    /**
     * Sends {@code outcome} and marks it sent.
     *
     * @return true when acknowledged; false when the send failed and the journal holds it for {@link #retry}
     * @throws RuntimeException the send's failure when {@code outcome} is in no journal entry (a refusal of a
     *                          forged decision): nothing else would send it again
     */
    public synchronized boolean deliver(StowageEvent outcome) {
        try {
            sender.send(outcome);
        } catch (RuntimeException e) {
            if (!handler.journaled(outcome)) {
                throw e;
            }
            LOG.log(System.Logger.Level.WARNING, "sending " + outcome.topic() + " event " + outcome.meta().eventId()
                    + " asset " + outcome.assetId() + " failed; sent again from the release journal", e);
            return false;
        }
        try {
            handler.markSent(outcome);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot mark " + outcome.topic() + " event "
                    + outcome.meta().eventId() + " sent; it will be sent once more (same event id)", e);
        }
        return true;
    }

    /**
     * Finishes interrupted releases ({@link ReleaseHandler#recover}) and sends every outcome not yet acknowledged.
     *
     * @return how many outcomes were acknowledged now
     */
    public synchronized int retry() {
        List<StowageEvent> unsent = handler.recover();
        int sent = 0;
        for (StowageEvent outcome : unsent) {
            if (handler.awaitingAck(outcome) && deliver(outcome)) {
                sent++;
            }
        }
        return sent;
    }
}
