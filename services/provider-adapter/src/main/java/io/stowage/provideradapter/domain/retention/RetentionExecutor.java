package io.stowage.provideradapter.domain.retention;

import io.stowage.events.CheckpointExpired;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.RetentionDecided;
import io.stowage.events.RetentionRefused;
import io.stowage.events.RetentionRefused.Refusal;
import io.stowage.provideradapter.domain.DecisionAuthenticator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one component that deletes stored objects: takes a retention decision (its exact value bytes and the
 * {@code stowage-signature} header), and returns the {@code checkpoint.expired} of each step it deleted and the
 * {@code retention.refused} of what it would not. It authenticates the decision like a gate decision (HMAC under the
 * gate's signing key; a forged or altered one deletes nothing), re-evaluates the run from the ledger and latest.json
 * now with the decision's policy, lets {@link ExpiryCheck} refuse what the re-evaluation keeps or what lies outside the
 * step, deletes each remaining step's objects from the primary and replica store, and reports a step expired only when
 * a HEAD answers not found for every one of its objects.
 *
 * <p>A decision with something to delete goes through the {@link RetentionJournal} ({@link JournaledDeletion}): its
 * entry, naming every step and object to delete, is fsynced before the first deletion, each step is journaled, and the
 * outcome is journaled before it is sent. A decision already DONE answers its recorded outcome again (same event ids)
 * and deletes nothing; one left DELETING by a crash is checked again and finished by {@link #recover} at start (or by
 * its replay), which also returns every outcome not yet acknowledged; {@link #markSent} clears them. Synchronized: one
 * decision at a time.
 */
public final class RetentionExecutor {
    private static final System.Logger LOG = System.getLogger(RetentionExecutor.class.getName());

    private final RetentionJournal journal;
    private final JournaledDeletion deletion;
    private final Clock clock;
    private final RetentionMeter meter;

    public RetentionExecutor(RetentionSources sources, DecisionAuthenticator authenticator, RetentionJournal journal,
                             Clock clock) {
        this(sources, authenticator, journal, clock, RetentionMeter.NONE);
    }

    /** @param meter told of every outcome decided now (not of one answered again for a decision already done) */
    public RetentionExecutor(RetentionSources sources, DecisionAuthenticator authenticator, RetentionJournal journal,
                             Clock clock, RetentionMeter meter) {
        this.journal = journal;
        this.deletion = new JournaledDeletion(sources, authenticator, journal, clock);
        this.clock = clock;
        this.meter = meter;
    }

    /**
     * @param value     the decision's value exactly as signed
     * @param signature the hex HMAC, null when absent
     * @return the events to send: one checkpoint.expired per deleted step, then a retention.refused when anything was
     *         refused
     * @throws io.stowage.events.InvalidEventException when the value is not a valid RetentionDecided
     * @throws UncheckedIOException when the journal cannot record a step after the entry was written (finished by
     *                              {@link #recover})
     */
    public synchronized Outcome execute(byte[] value, String signature) {
        RetentionDecided decision = EventCodec.decode(RetentionDecided.class, value);
        Optional<String> forged = deletion.authenticator().problem(value, signature);
        Optional<RetentionEntry> known = forged.isPresent() ? Optional.empty() : journal.entry(decision.meta().eventId());
        if (known.isPresent() && known.get().state() == RetentionEntry.State.DONE) {
            LOG.log(System.Logger.Level.INFO, "retention.decided event {0} was executed already: answering its "
                    + "recorded outcome again, nothing deleted", decision.meta().eventId());
            return outcomeOf(known.get());
        }
        Outcome outcome = decide(decision, value, signature, forged, known);
        meter.decided(outcome);
        return outcome;
    }

    private Outcome decide(RetentionDecided decision, byte[] value, String signature, Optional<String> forged,
                           Optional<RetentionEntry> known) {
        if (forged.isPresent()) {
            return refusedWhole(decision, "retention decision not authenticated: " + forged.get() + "; nothing deleted");
        }
        if (known.isPresent()) {
            return resume(decision, known.get());
        }
        ExpiryCheck.Result checked;
        try {
            checked = deletion.check(decision);
        } catch (IOException | RuntimeException e) {
            return refusedWhole(decision, "cannot re-evaluate the decision from the ledger and latest.json ("
                    + e.getMessage() + "); nothing deleted");
        }
        if (checked.deletions().isEmpty()) {
            return new Outcome(decision, List.of(), refused(decision, checked.refusals()));
        }
        RetentionEntry entry = RetentionEntry.deleting(decision.meta().eventId(), value, signature,
                checked.deletions(), checked.refusals(), clock.instant());
        try {
            journal.save(entry);
        } catch (IOException e) {
            return refusedWhole(decision, "cannot record decision " + decision.meta().eventId() + " in the retention "
                    + "journal (" + e.getMessage() + "); nothing deleted");
        }
        return outcomeOf(deletion.run(entry, decision));
    }

    /**
     * Finishes every entry left DELETING (by a crash or an I/O error), each checked again first, and collects the
     * outcomes not yet acknowledged, oldest first. An entry that cannot be trusted or finished now deletes nothing more
     * and is logged and left for the next call.
     *
     * @return the outcomes to send, each with its recorded event ids
     */
    public synchronized List<Outcome> recover() {
        journal.unreadable().forEach(problem -> LOG.log(System.Logger.Level.ERROR, "retention journal file {0}; it is "
                + "never executed (nothing it names is deleted): look at it and remove it", problem));
        List<Outcome> unsent = new ArrayList<>();
        for (RetentionEntry entry : journal.entries()) {
            RetentionEntry now = entry;
            if (entry.state() != RetentionEntry.State.DONE) {
                try {
                    LOG.log(System.Logger.Level.WARNING, "retention decision {0} was left {1}: checking it again and "
                            + "finishing it", entry.decisionId(), entry.state());
                    now = deletion.finish(entry);
                    meter.decided(outcomeOf(now));
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "retention decision " + entry.decisionId() + " left "
                            + entry.state() + " is not finished now, nothing more deleted; retried later", e);
                    continue;
                }
            }
            if (now.unsent()) {
                unsent.add(outcomeOf(now));
            }
        }
        return unsent;
    }

    /**
     * Records that the outcome of {@code decisionId} was acknowledged; a decision with no journal entry changes nothing.
     *
     * @return true when an entry was marked
     * @throws IOException when the mark cannot be made durable (the outcome is then sent once more later)
     */
    public synchronized boolean markSent(String decisionId) throws IOException {
        Optional<RetentionEntry> entry = journal.entry(decisionId);
        if (entry.isEmpty() || !entry.get().unsent()) {
            return false;
        }
        journal.save(entry.get().markedSent(clock.instant()));
        return true;
    }

    /** @return true when the journal holds the outcome of {@code decisionId} (DONE), so it would send it again */
    public synchronized boolean journaled(String decisionId) {
        return journal.entry(decisionId).map(e -> e.state() == RetentionEntry.State.DONE).orElse(false);
    }

    /** @return true when the journal holds the outcome of {@code decisionId} and it is not yet acknowledged */
    public synchronized boolean awaitingAck(String decisionId) {
        return journal.entry(decisionId).map(RetentionEntry::unsent).orElse(false);
    }

    private Outcome resume(RetentionDecided decision, RetentionEntry entry) {
        try {
            return outcomeOf(deletion.finish(entry));
        } catch (IOException | RuntimeException e) {
            return refusedWhole(decision, "decision " + decision.meta().eventId() + " was interrupted and cannot be "
                    + "finished now (" + e.getMessage() + "); nothing more deleted, the journal finishes it later");
        }
    }

    private Outcome outcomeOf(RetentionEntry entry) {
        RetentionDecided decision = EventCodec.decode(RetentionDecided.class, entry.decision());
        return new Outcome(decision, entry.expired(), Optional.ofNullable(entry.refused()));
    }

    private Optional<RetentionRefused> refused(RetentionDecided decision, List<Refusal> refusals) {
        return refusals.isEmpty() ? Optional.empty() : Optional.of(RetentionRefused.of(EventMeta.causedBy(decision,
                clock), decision.meta().eventId(), decision.experiment(), decision.run(), refusals));
    }

    private Outcome refusedWhole(RetentionDecided decision, String reason) {
        return new Outcome(decision, List.of(), refused(decision,
                List.of(new Refusal(null, null, reason.replaceAll("[\\r\\n]+", " ")))));
    }

    /** What executing one decision produced: the steps expired (deleted and HEAD-confirmed) and any refusal. */
    public record Outcome(RetentionDecided decision, List<CheckpointExpired> expired, Optional<RetentionRefused> refused) {
    }
}
