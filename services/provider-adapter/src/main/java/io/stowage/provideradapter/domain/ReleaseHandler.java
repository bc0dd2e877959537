package io.stowage.provideradapter.domain;

import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Takes a {@code gate.passed} record (raw value bytes and signature header) and returns the outcome event to send:
 * {@link VolumeReleased} or {@link VolumeReleaseFailed}; nothing for a dry run, which is evaluated by the gate but
 * never executed. A record whose signature does not verify is refused with VolumeReleaseFailed("gate decision not
 * authenticated: ...") and is neither journaled nor handed to the provider.
 *
 * <p>An authentic decision is executed at most once per release request, through the {@link ReleaseJournal}:
 * APPROVED is recorded before anything is checked, DELETING (with the aside path) before the directory is renamed
 * aside, DONE with the outcome event before that event is sent. A request already DONE answers its recorded outcome
 * again (the same event id) and deletes nothing; a request found APPROVED or DELETING (an attempt interrupted by a
 * crash or an I/O error) is finished. {@link #recover} does the same for every unfinished entry at start and
 * returns every outcome not yet acknowledged, which {@link #markSent} clears. Synchronized: one release at a time.
 *
 * <p>A decision whose inventory travels by reference is joined from its {@code gate.inventory} parts
 * ({@link InventoryParts}) before it is journaled; when the joined entries do not have the signed digest (a part
 * missing, forged or changed) the answer is VolumeReleaseFailed and nothing is deleted. The journal keeps the
 * joined decision, so a recovery never needs the parts again.
 */
public final class ReleaseHandler {
    private static final System.Logger LOG = System.getLogger(ReleaseHandler.class.getName());

    private final ReleaseProvider provider;
    private final DecisionAuthenticator authenticator;
    private final ReleaseJournal journal;
    private final Clock clock;
    private final InventoryParts parts;
    private final ReleaseMeter meter;

    /** A handler that refuses every decision whose inventory travels by reference ({@link InventoryParts#NONE}). */
    public ReleaseHandler(ReleaseProvider provider, DecisionAuthenticator authenticator, ReleaseJournal journal,
                          Clock clock) {
        this(provider, authenticator, journal, clock, InventoryParts.NONE, ReleaseMeter.NONE);
    }

    /** @param meter told of every outcome decided now (not of one answered again for a request already done) */
    public ReleaseHandler(ReleaseProvider provider, DecisionAuthenticator authenticator, ReleaseJournal journal,
                          Clock clock, ReleaseMeter meter) {
        this(provider, authenticator, journal, clock, InventoryParts.NONE, meter);
    }

    /**
     * @param parts reads the {@code gate.inventory} parts of a decision too large for one record
     * @param meter told of every outcome decided now (not of one answered again for a request already done)
     */
    public ReleaseHandler(ReleaseProvider provider, DecisionAuthenticator authenticator, ReleaseJournal journal,
                          Clock clock, InventoryParts parts, ReleaseMeter meter) {
        this.provider = provider;
        this.authenticator = authenticator;
        this.journal = journal;
        this.clock = clock;
        this.parts = parts;
        this.meter = meter;
    }

    /**
     * @param value     the record's value exactly as received (the bytes the signature covers)
     * @param signature the {@code stowage-signature} header, null when absent
     * @return empty for an authentic dry run, else the outcome event of the request (recorded in the journal when
     *         the decision was authentic)
     * @throws io.stowage.events.InvalidEventException when the value is not a valid GatePassed (dead-letter)
     * @throws UncheckedIOException when the journal cannot record a step after APPROVED (the entry is finished
     *                              by {@link #recover})
     */
    public synchronized Optional<StowageEvent> handle(byte[] value, String signature) {
        Optional<String> forged = authenticator.problem(value, signature);
        GatePassed passed = EventCodec.decode(GatePassed.class, value);
        if (forged.isPresent()) {
            return Optional.of(metered(failed(passed, "gate decision not authenticated: " + forged.get()
                    + "; nothing deleted")));
        }
        if (passed.dryRun()) {
            return Optional.empty();
        }
        Optional<ReleaseEntry> known = journal.entry(passed.requestId());
        if (known.isPresent() && known.get().state() == ReleaseEntry.State.DONE) {
            StowageEvent outcome = known.get().outcome();
            LOG.log(System.Logger.Level.INFO, "release request {0} (gate.passed event {1}) is already done: answering "
                    + "its recorded {2} event {3} again, nothing deleted", passed.requestId(), passed.meta().eventId(),
                    outcome.topic(), outcome.meta().eventId());
            return Optional.of(outcome);
        }
        if (known.isPresent()) {
            return Optional.of(executeMetered(known.get()).outcome());
        }
        if (passed.inventoryByReference()) {
            Optional<GatePassed> joined = joined(passed);
            if (joined.isEmpty()) {
                return Optional.of(metered(failed(passed, "the " + passed.inventoryParts() + " gate.inventory part(s)"
                        + " of gate decision " + passed.meta().eventId() + " are not all on the topic, or do not join to"
                        + " its inventoryDigest; nothing deleted")));
            }
            passed = joined.get();
        }
        ReleaseEntry approved = ReleaseEntry.approved(passed, clock.instant());
        try {
            journal.save(approved);
        } catch (IOException e) {
            return Optional.of(metered(failed(passed, "cannot record request " + passed.requestId() + " in the release "
                    + "journal (" + e.getMessage() + "); nothing deleted")));
        }
        return Optional.of(executeMetered(approved).outcome());
    }

    /**
     * Finishes every entry left APPROVED or DELETING (by a crash or an I/O error) and collects the outcomes not yet
     * acknowledged, oldest first. An entry that cannot be finished now is logged and left for the next call.
     *
     * @return the outcome events to send, each with its recorded event id
     */
    public synchronized List<StowageEvent> recover() {
        List<StowageEvent> unsent = new ArrayList<>();
        for (ReleaseEntry entry : journal.entries()) {
            ReleaseEntry now = entry;
            if (entry.state() != ReleaseEntry.State.DONE) {
                try {
                    LOG.log(System.Logger.Level.WARNING, "release request {0} was left {1}: finishing it",
                            entry.requestId(), entry.state());
                    now = executeMetered(entry);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "release request " + entry.requestId() + " left "
                            + entry.state() + " cannot be finished now; retried later", e);
                    continue;
                }
            }
            if (now.unsent()) {
                unsent.add(now.outcome());
            }
        }
        return unsent;
    }

    /**
     * Records that {@code outcome} was acknowledged; an event that is not the journaled outcome of its request
     * (e.g. the refusal of a forged decision) changes nothing.
     *
     * @return true when a journal entry was marked
     * @throws IOException when the mark cannot be made durable (the outcome is then sent once more later)
     */
    public synchronized boolean markSent(StowageEvent outcome) throws IOException {
        if (!journaled(outcome)) {
            return false;
        }
        ReleaseEntry entry = journal.entry(requestId(outcome)).orElseThrow();
        if (entry.sent()) {
            return false;
        }
        journal.save(entry.markedSent(clock.instant()));
        return true;
    }

    /** @return true when {@code outcome} is the journaled outcome of its request */
    public synchronized boolean journaled(StowageEvent outcome) {
        String requestId = requestId(outcome);
        Optional<ReleaseEntry> entry = requestId == null ? Optional.empty() : journal.entry(requestId);
        return entry.isPresent() && entry.get().outcome() != null
                && entry.get().outcome().meta().eventId().equals(outcome.meta().eventId());
    }

    /** @return true when {@code outcome} is the journaled outcome of its request and not yet acknowledged */
    public synchronized boolean awaitingAck(StowageEvent outcome) {
        return journaled(outcome) && !journal.entry(requestId(outcome)).orElseThrow().sent();
    }

    private static String requestId(StowageEvent outcome) {
        return outcome instanceof VolumeReleased r ? r.requestId()
                : outcome instanceof VolumeReleaseFailed f ? f.requestId() : null;
    }

    private ReleaseEntry executeMetered(ReleaseEntry entry) {
        long start = System.nanoTime();
        ReleaseEntry done = execute(entry);
        meter.decided(done.outcome(), System.nanoTime() - start);
        return done;
    }

    private StowageEvent metered(StowageEvent outcome) {
        meter.decided(outcome, 0);
        return outcome;
    }

    private ReleaseEntry execute(ReleaseEntry entry) {
        GatePassed passed = entry.decision();
        ApprovedRelease approved;
        try {
            approved = ApprovedRelease.of(passed);
        } catch (InvalidPathException e) {
            return done(entry, failed(passed, "not a valid path: " + e.getMessage() + "; nothing deleted"));
        }
        if (entry.state() == ReleaseEntry.State.APPROVED) {
            Optional<String> refused = inventoryProblem(passed).or(() -> provider.refusal(approved));
            if (refused.isPresent()) {
                return done(entry, failed(passed, refused.get()));
            }
            entry = save(entry.deleting(approved.asideFor(passed.requestId()).toString(), clock.instant()));
            // the one line between the journal's DELETING and the outcome: the fault suite strikes at it
            LOG.log(System.Logger.Level.INFO, "release request {0} recorded deleting: renaming {1} aside to {2} and"
                    + " deleting its {3} approved file(s)", passed.requestId(), passed.path(), entry.aside(),
                    passed.inventory().size());
        }
        ReleaseResult result = provider.finish(approved, Path.of(entry.aside()));
        StowageEvent outcome = result.released()
                ? VolumeReleased.of(EventMeta.causedBy(passed, clock), passed.requestId(), passed.path(),
                        provider.name(), result.fileCount(), result.totalBytes())
                : failed(passed, result.reason());
        return done(entry, outcome);
    }

    /**
     * @return the decision holding the entries of its parts, when there are exactly {@code fileCount} of them and
     *         they have the signed {@code inventoryDigest}; empty otherwise
     */
    private Optional<GatePassed> joined(GatePassed passed) {
        Optional<List<io.stowage.events.InventoryEntry>> entries = parts.join(passed);
        if (entries.isEmpty() || entries.get().size() != passed.fileCount()
                || !DirectoryInventory.digestOf(entries.get()).equals(passed.inventoryDigest())) {
            return Optional.empty();
        }
        LOG.log(System.Logger.Level.INFO, "gate decision {0}: joined {1} gate.inventory part(s), {2} file(s), digest"
                + " verified", passed.meta().eventId(), passed.inventoryParts(), entries.get().size());
        return Optional.of(passed.withInventory(entries.get()));
    }

    private static Optional<String> inventoryProblem(GatePassed passed) {
        if (passed.inventoryDigest() == null
                || !DirectoryInventory.digestOf(passed.inventory()).equals(passed.inventoryDigest())) {
            return Optional.of("gate decision " + passed.meta().eventId() + " carries no inventory whose digest"
                    + " matches its inventoryDigest (a gatekeeper too old to send one?); nothing deleted");
        }
        return Optional.empty();
    }

    private ReleaseEntry done(ReleaseEntry entry, StowageEvent outcome) {
        return save(entry.done(outcome, clock.instant()));
    }

    private ReleaseEntry save(ReleaseEntry entry) {
        try {
            journal.save(entry);
            return entry;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record release request " + entry.requestId() + " as "
                    + entry.state() + " in the release journal; finished at the next recovery", e);
        }
    }

    private VolumeReleaseFailed failed(GatePassed passed, String reason) {
        return VolumeReleaseFailed.of(EventMeta.causedBy(passed, clock), passed.requestId(), passed.path(),
                reason.replaceAll("[\\r\\n]+", " "));
    }
}
