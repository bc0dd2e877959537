package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.RetentionPlan;
import io.stowage.cli.retention.RetentionPlanner;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.RetentionDecided;
import io.stowage.events.RetentionRefused;
import io.stowage.events.RetentionRefused.Refusal;
import io.stowage.provideradapter.domain.DecisionAuthenticator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The one component that deletes stored objects: takes a retention decision (its exact value bytes and the
 * {@code stowage-signature} header), and returns the {@code checkpoint.expired} of each step it deleted and the
 * {@code retention.refused} of what it would not. It authenticates the decision like a gate decision (HMAC under the
 * gate's signing key; a forged or altered one deletes nothing), re-evaluates the run from the ledger and latest.json
 * now with the decision's policy, lets {@link ExpiryCheck} refuse what the re-evaluation keeps or what lies outside the
 * step, deletes each remaining step's objects from the primary and replica store, and reports a step expired only when
 * a HEAD answers not found for every one of its objects. Synchronized: one decision at a time.
 */
public final class RetentionExecutor {
    private final RetentionSources sources;
    private final DecisionAuthenticator authenticator;
    private final Clock clock;

    public RetentionExecutor(RetentionSources sources, DecisionAuthenticator authenticator, Clock clock) {
        this.sources = sources;
        this.authenticator = authenticator;
        this.clock = clock;
    }

    /**
     * @param value     the decision's value exactly as signed
     * @param signature the hex HMAC, null when absent
     * @return the events to send: one checkpoint.expired per deleted step, then a retention.refused when anything was
     *         refused
     * @throws io.stowage.events.InvalidEventException when the value is not a valid RetentionDecided
     */
    public synchronized Outcome execute(byte[] value, String signature) {
        RetentionDecided decision = EventCodec.decode(RetentionDecided.class, value);
        Optional<String> forged = authenticator.problem(value, signature);
        if (forged.isPresent()) {
            return refusedWhole(decision, "retention decision not authenticated: " + forged.get() + "; nothing deleted");
        }
        ExpiryCheck.Result checked;
        try {
            RunCheckpointsAndPlan now = reevaluate(decision);
            checked = ExpiryCheck.check(decision, now.ledger(), now.plan(), sources.buckets());
        } catch (IOException | RuntimeException e) {
            return refusedWhole(decision, "cannot re-evaluate the decision from the ledger and latest.json ("
                    + e.getMessage() + "); nothing deleted");
        }
        List<CheckpointExpired> expired = new ArrayList<>();
        List<Refusal> refusals = new ArrayList<>(checked.refusals());
        for (ExpiryCheck.Deletion deletion : checked.deletions()) {
            Optional<String> problem = delete(deletion);
            if (problem.isPresent()) {
                refusals.add(new Refusal(deletion.step(), null, problem.get()));
            } else {
                expired.add(expiredEvent(decision, deletion));
            }
        }
        return new Outcome(decision, expired, refusals.isEmpty() ? Optional.empty()
                : Optional.of(RetentionRefused.of(EventMeta.causedBy(decision, clock), decision.meta().eventId(),
                decision.experiment(), decision.run(), refusals)));
    }

    private RunCheckpointsAndPlan reevaluate(RetentionDecided decision) throws IOException {
        var ledger = sources.steps(decision.experiment(), decision.run());
        Long latest = sources.latestStep(decision.experiment(), decision.run());
        RetentionPlan plan = RetentionPlanner.plan(ledger, RetentionPolicies.of(decision.policy()), latest, clock.instant());
        return new RunCheckpointsAndPlan(ledger, plan);
    }

    private Optional<String> delete(ExpiryCheck.Deletion deletion) {
        for (ExpiredObject o : deletion.objects()) {
            try {
                sources.delete(o.store(), o.key());
            } catch (IOException | RuntimeException e) {
                return Optional.of("cannot delete " + o.key() + " in " + o.store() + " (" + e.getMessage()
                        + "); the step is not expired (some of its objects may be gone; apply again)");
            }
        }
        for (ExpiredObject o : deletion.objects()) {
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

    private CheckpointExpired expiredEvent(RetentionDecided decision, ExpiryCheck.Deletion deletion) {
        // one id per step: a second decision that deletes an already deleted step is stored once by the ledger
        String id = UUID.nameUUIDFromBytes(("checkpoint-expired:" + decision.experiment() + "/" + decision.run() + "/"
                + deletion.step()).getBytes(StandardCharsets.UTF_8)).toString();
        return CheckpointExpired.of(EventMeta.causedBy(decision, id, clock), decision.experiment(), decision.run(),
                deletion.step(), decision.planSha256(), deletion.objects(), decision.requestedBy());
    }

    private Outcome refusedWhole(RetentionDecided decision, String reason) {
        return new Outcome(decision, List.of(), Optional.of(RetentionRefused.of(EventMeta.causedBy(decision, clock),
                decision.meta().eventId(), decision.experiment(), decision.run(),
                List.of(new Refusal(null, null, reason.replaceAll("[\\r\\n]+", " "))))));
    }

    private record RunCheckpointsAndPlan(io.stowage.events.ledger.RunCheckpoints ledger, RetentionPlan plan) {
    }

    /** What executing one decision produced: the steps expired (deleted and HEAD-confirmed) and any refusal. */
    public record Outcome(RetentionDecided decision, List<CheckpointExpired> expired, Optional<RetentionRefused> refused) {
    }
}
