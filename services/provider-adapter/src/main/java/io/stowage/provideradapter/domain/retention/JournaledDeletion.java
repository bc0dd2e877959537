package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.domain.RetentionPolicies;
import io.stowage.cli.retention.RetentionPlan;
import io.stowage.cli.retention.RetentionPlanner;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.RetentionDecided;
import io.stowage.events.RetentionRefused;
import io.stowage.events.RetentionRefused.Refusal;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.retention.RetentionEntry.StepEntry;
import io.stowage.provideradapter.domain.retention.RetentionEntry.StepState;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Deletes the steps of one journaled retention decision ({@link RetentionEntry}) and records each step and the outcome
 * in the {@link RetentionJournal}: consumes the entry, produces it DONE with the checkpoint.expired of each step a HEAD
 * confirmed gone and the refusal of every other. {@link #finish} resumes an entry a crash left DELETING, and deletes
 * nothing more unless (1) the journaled decision bytes still authenticate under the gate's key and carry the entry's
 * id, (2) every journaled object is one the decision itself names, and (3) {@link ExpiryCheck} against the ledger and
 * latest.json now still lets the step expire with exactly the journaled objects; a step that fails (2) or (3) is
 * refused with what was already deleted before the crash (HEAD), like a partly done release. Not thread-safe: the
 * {@link RetentionExecutor} holds its lock.
 */
public final class JournaledDeletion {
    private static final System.Logger LOG = System.getLogger(JournaledDeletion.class.getName());

    private final RetentionSources sources;
    private final DecisionAuthenticator authenticator;
    private final RetentionJournal journal;
    private final Clock clock;

    public JournaledDeletion(RetentionSources sources, DecisionAuthenticator authenticator, RetentionJournal journal,
                             Clock clock) {
        this.sources = sources;
        this.authenticator = authenticator;
        this.journal = journal;
        this.clock = clock;
    }

    /** @return the verifier of decision signatures (the gate's key) */
    public DecisionAuthenticator authenticator() {
        return authenticator;
    }

    /**
     * @return ExpiryCheck of {@code decision} against the run as the ledger and latest.json answer now
     * @throws IOException when the ledger or latest.json cannot be read (then nothing is deleted)
     */
    public ExpiryCheck.Result check(RetentionDecided decision) throws IOException {
        RunCheckpoints ledger = sources.steps(decision.experiment(), decision.run());
        Long latest = sources.latestStep(decision.experiment(), decision.run());
        RetentionPlan plan = RetentionPlanner.plan(ledger, RetentionPolicies.of(decision.policy()), latest, clock.instant());
        return ExpiryCheck.check(decision, ledger, plan, sources.buckets());
    }

    /**
     * Deletes every unfinished step of {@code entry} (no check: the caller just made it) and records the outcome.
     *
     * @return the entry DONE, not yet sent
     * @throws UncheckedIOException when a state cannot be journaled (the step stays unfinished for a recovery)
     */
    public RetentionEntry run(RetentionEntry entry, RetentionDecided decision) {
        for (int i = 0; i < entry.steps().size(); i++) {
            StepEntry step = entry.steps().get(i);
            if (step.unfinished()) {
                entry = deleteStep(entry, i, decision);
            }
        }
        List<Refusal> refusals = new ArrayList<>(entry.refusals());
        entry.steps().stream().filter(s -> s.state() == StepState.REFUSED)
                .forEach(s -> refusals.add(new Refusal(s.step(), null, s.reason())));
        RetentionRefused refused = refusals.isEmpty() ? null : RetentionRefused.of(EventMeta.causedBy(decision, clock),
                decision.meta().eventId(), decision.experiment(), decision.run(), refusals);
        return save(entry.done(refused, clock.instant()));
    }

    /**
     * Checks an entry left DELETING again and finishes it (see the class comment for what it must pass).
     *
     * @return the entry DONE, not yet sent
     * @throws IllegalStateException when the entry cannot be trusted (its decision unreadable, of another id, or not
     *                               authentic): nothing is deleted and the entry is left as it is
     * @throws IOException           when the ledger or latest.json cannot be read: nothing more is deleted, retried later
     */
    public RetentionEntry finish(RetentionEntry entry) throws IOException {
        RetentionDecided decision = trusted(entry);
        ExpiryCheck.Result now = check(decision);
        for (int i = 0; i < entry.steps().size(); i++) {
            StepEntry step = entry.steps().get(i);
            if (!step.unfinished()) {
                continue;
            }
            Optional<String> why = notNamed(decision, step).or(() -> noLongerExpirable(step, now));
            if (why.isPresent()) {
                LOG.log(System.Logger.Level.WARNING, "retention decision {0}: step {1} is not finished after the "
                        + "restart: {2}", entry.decisionId(), step.step(), why.get());
                entry = save(entry.withStep(i, new StepEntry(step.step(), StepState.REFUSED, step.objects(), null,
                        why.get() + "; " + alreadyGone(step)), clock.instant()));
            } else if (expiredInLedger(step, now)) {
                entry = save(entry.withStep(i, new StepEntry(step.step(), StepState.ALREADY_EXPIRED, step.objects(),
                        null, null), clock.instant()));
            }
        }
        return run(entry, decision);
    }

    private RetentionDecided trusted(RetentionEntry entry) {
        RetentionDecided decision;
        try {
            decision = EventCodec.decode(RetentionDecided.class, entry.decision());
        } catch (RuntimeException e) {
            throw new IllegalStateException("its journaled decision cannot be read (" + e.getMessage() + ")", e);
        }
        if (!decision.meta().eventId().equals(entry.decisionId())) {
            throw new IllegalStateException("the entry of " + entry.decisionId() + " holds decision "
                    + decision.meta().eventId());
        }
        Optional<String> forged = authenticator.problem(entry.decision(), entry.signature());
        if (forged.isPresent()) {
            throw new IllegalStateException("its journaled decision does not authenticate (" + forged.get() + ")");
        }
        return decision;
    }

    private static Optional<String> notNamed(RetentionDecided decision, StepEntry step) {
        Set<String> named = new TreeSet<>();
        decision.expire().stream().filter(s -> s.step() == step.step())
                .forEach(s -> s.objects().forEach(o -> named.add(o.store() + " " + o.key())));
        for (ExpiredObject o : step.objects()) {
            if (!named.contains(o.store() + " " + o.key())) {
                return Optional.of("the journal names " + o.key() + " in " + o.store() + ", which the decision does"
                        + " not name for step " + step.step() + "; nothing more deleted");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> noLongerExpirable(StepEntry step, ExpiryCheck.Result now) {
        Optional<Refusal> refused = now.refusals().stream().filter(r -> r.step() != null && r.step() == step.step())
                .findFirst();
        if (refused.isPresent()) {
            String reason = refused.get().reason().replace("; nothing of step " + step.step() + " deleted", "");
            return Optional.of("checked again after the restart: " + reason + "; nothing more deleted");
        }
        Optional<ExpiryCheck.Deletion> deletion = now.deletions().stream().filter(d -> d.step() == step.step())
                .findFirst();
        if (deletion.isPresent() && !keys(deletion.get().objects()).equals(keys(step.objects()))) {
            return Optional.of("the ledger's objects of step " + step.step() + " are not the journaled ones any more;"
                    + " nothing more deleted");
        }
        return Optional.empty();
    }

    private static boolean expiredInLedger(StepEntry step, ExpiryCheck.Result now) {
        return now.deletions().stream().noneMatch(d -> d.step() == step.step());
    }

    private String alreadyGone(StepEntry step) {
        if (step.state() == StepState.PENDING) {
            return "nothing of step " + step.step() + " was deleted";
        }
        List<String> gone = new ArrayList<>();
        for (ExpiredObject o : step.objects()) {
            try {
                if (!sources.exists(o.store(), o.key())) {
                    gone.add(o.store() + " " + o.key());
                }
            } catch (IOException | RuntimeException e) {
                return "which of its " + step.objects().size() + " object(s) were deleted before the restart cannot be"
                        + " told (" + e.getMessage() + ")";
            }
        }
        return gone.size() + " of its " + step.objects().size() + " object(s) were deleted before the restart"
                + (gone.isEmpty() ? "" : " (" + String.join(", ", gone) + ")") + ", the others are kept; the step is"
                + " not expired";
    }

    private RetentionEntry deleteStep(RetentionEntry entry, int index, RetentionDecided decision) {
        StepEntry step = entry.steps().get(index);
        entry = save(entry.withStep(index, new StepEntry(step.step(), StepState.DELETING, step.objects(), null, null),
                clock.instant()));
        // the one line between the journal's DELETING and the outcome: the fault suite strikes at it
        LOG.log(System.Logger.Level.INFO, "retention decision {0} recorded step {1} deleting: deleting its {2} "
                + "object(s)", entry.decisionId(), step.step(), step.objects().size());
        Optional<String> problem = deleteAndConfirm(step.objects(), step.state() == StepState.DELETING);
        StepEntry next = problem.isPresent()
                ? new StepEntry(step.step(), StepState.REFUSED, step.objects(), null, problem.get())
                : new StepEntry(step.step(), StepState.EXPIRED, step.objects(), expiredEvent(decision, step), null);
        return save(entry.withStep(index, next, clock.instant()));
    }

    private Optional<String> deleteAndConfirm(List<ExpiredObject> objects, boolean resumed) {
        for (ExpiredObject o : objects) {
            try {
                // a resumed step deletes only what is still there: what the killed attempt deleted is not asked again
                if (!resumed || sources.exists(o.store(), o.key())) {
                    sources.delete(o.store(), o.key());
                }
            } catch (IOException | RuntimeException e) {
                return Optional.of("cannot delete " + o.key() + " in " + o.store() + " (" + e.getMessage()
                        + "); the step is not expired (some of its objects may be gone; apply again)");
            }
        }
        for (ExpiredObject o : objects) {
            try {
                if (sources.exists(o.store(), o.key())) {
                    return Optional.of(o.key() + " in " + o.store() + " still answers HEAD after its deletion; the step"
                            + " is not expired");
                }
            } catch (IOException | RuntimeException e) {
                return Optional.of("cannot confirm " + o.key() + " in " + o.store() + " is gone (" + e.getMessage()
                        + "); the step is not expired");
            }
        }
        return Optional.empty();
    }

    private CheckpointExpired expiredEvent(RetentionDecided decision, StepEntry step) {
        // one id per step: a second decision that deletes an already deleted step is stored once by the ledger
        String id = UUID.nameUUIDFromBytes(("checkpoint-expired:" + decision.experiment() + "/" + decision.run() + "/"
                + step.step()).getBytes(StandardCharsets.UTF_8)).toString();
        return CheckpointExpired.of(EventMeta.causedBy(decision, id, clock), decision.experiment(), decision.run(),
                step.step(), decision.planSha256(), step.objects(), decision.requestedBy());
    }

    private static Set<String> keys(List<ExpiredObject> objects) {
        Set<String> out = new TreeSet<>();
        objects.forEach(o -> out.add(o.store() + " " + o.bucket() + " " + o.key()));
        return out;
    }

    private RetentionEntry save(RetentionEntry entry) {
        try {
            journal.save(entry);
            return entry;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record retention decision " + entry.decisionId() + " as "
                    + entry.state() + " in the retention journal; finished at the next recovery", e);
        }
    }
}
