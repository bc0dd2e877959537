package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.RetentionPlan;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.ObjectKeys;
import io.stowage.events.RetentionDecided;
import io.stowage.events.RetentionRefused.Refusal;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks an authentic retention decision against the run as the ledger holds it now and a plan re-evaluated from it:
 * consumes the decision, the ledger's {@link RunCheckpoints}, the fresh {@link RetentionPlan} and the buckets the
 * executor deletes in; produces the steps that may be deleted (with the ledger's objects, never the decision's) and a
 * refusal for each step that may not. A step is refused when any key the decision names is outside
 * {@code checkpoints/<experiment>/<run>/<step>/}, in a store other than primary or replica, or not exactly the set of
 * objects the ledger holds for that step in that bucket; when the re-evaluation keeps it (whatever the reason); and,
 * checked on their own so that no change of the rules can lift them, when it is latest.json's step, the newest
 * verified step, pinned, leased at the re-evaluation's time (a fetch for a resume holds it), or named by a model
 * revision (promoted; an unpin does not lift that). A step the ledger records as expired already is skipped silently (apply twice is a no-op).
 * Pure.
 */
public final class ExpiryCheck {
    /** The stores retention deletes from. */
    public static final Set<String> STORES = Set.of("primary", "replica");

    private ExpiryCheck() {
    }

    /**
     * @param decision the decision (authenticity already checked)
     * @param ledger   the run as the ledger answers now
     * @param fresh    the plan re-evaluated now from {@code ledger} with the decision's policy
     * @param buckets  store name to the bucket the executor deletes in
     * @return what may be deleted and what is refused; never both for one step
     */
    public static Result check(RetentionDecided decision, RunCheckpoints ledger, RetentionPlan fresh,
                               Map<String, String> buckets) {
        List<Deletion> deletions = new ArrayList<>();
        List<Refusal> refusals = new ArrayList<>();
        for (RetentionDecided.ExpiringStep step : decision.expire()) {
            Optional<CheckpointStepEvidence> known = ledger.steps().stream().filter(s -> s.step() == step.step()).findFirst();
            if (known.isPresent() && known.get().expiredEventId() != null) {
                continue;
            }
            Optional<String> why = keyProblem(decision, step, known, buckets)
                    .or(() -> keptProblem(step.step(), known, fresh));
            if (why.isPresent()) {
                refusals.add(new Refusal(step.step(), null, why.get() + "; nothing of step " + step.step() + " deleted"));
            } else {
                deletions.add(new Deletion(step.step(), objectsOf(known.orElseThrow())));
            }
        }
        return new Result(deletions, refusals);
    }

    private static Optional<String> keyProblem(RetentionDecided decision, RetentionDecided.ExpiringStep step,
                                               Optional<CheckpointStepEvidence> known, Map<String, String> buckets) {
        String prefix = "checkpoints/" + decision.experiment() + "/" + decision.run() + "/"
                + ObjectKeys.paddedStep(step.step()) + "/";
        for (ExpiredObject o : step.objects()) {
            if (!o.key().startsWith(prefix) || o.key().contains("/../") || o.key().endsWith("/..")) {
                return Optional.of("key " + o.key() + " is outside " + prefix);
            }
            if (!STORES.contains(o.store()) || !buckets.containsKey(o.store())) {
                return Optional.of("key " + o.key() + " names store '" + o.store() + "', not one retention deletes from");
            }
        }
        if (known.isEmpty()) {
            return Optional.of("the ledger knows no step " + step.step() + " of " + decision.experiment() + "/" + decision.run());
        }
        Set<String> named = new TreeSet<>();
        step.objects().forEach(o -> named.add(o.store() + " " + o.key()));
        Set<String> held = new TreeSet<>();
        for (ObjectEvidence o : known.get().asset().objects()) {
            if (!o.bucket().equals(buckets.get(o.store()))) {
                return Optional.of("the ledger holds " + o.key() + " in bucket " + o.bucket() + " of store " + o.store()
                        + ", not the bucket retention deletes in");
            }
            held.add(o.store() + " " + o.key());
        }
        if (!named.equals(held)) {
            return Optional.of("the decision names " + named.size() + " object(s) but the ledger holds " + held.size()
                    + " for the step (they differ: " + difference(named, held) + ")");
        }
        return Optional.empty();
    }

    private static Optional<String> keptProblem(long step, Optional<CheckpointStepEvidence> known, RetentionPlan fresh) {
        if (fresh.latestStep() != null && fresh.latestStep() == step) {
            return Optional.of("step " + step + " is the step latest.json names");
        }
        if (known.isPresent() && known.get().pinned()) {
            return Optional.of("step " + step + " is pinned");
        }
        if (known.isPresent() && known.get().leasedAt(fresh.evaluatedAt())) {
            return Optional.of("step " + step + " is leased until " + known.get().leasedUntil() + " (a fetch for a resume)");
        }
        if (known.isPresent() && !known.get().promotedTo().isEmpty()) {
            return Optional.of("step " + step + " is promoted to " + String.join(", ", known.get().promotedTo()));
        }
        Optional<RetentionPlan.Step> planned = fresh.steps().stream().filter(s -> s.step() == step).findFirst();
        if (planned.isEmpty()) {
            return Optional.of("the re-evaluation has no step " + step);
        }
        if (planned.get().keptBy().contains("newest-verified")) {
            return Optional.of("step " + step + " is the newest verified step");
        }
        if (!planned.get().expire()) {
            return Optional.of("the re-evaluation from the ledger keeps step " + step + " ("
                    + String.join(", ", planned.get().keptBy()) + ")");
        }
        return Optional.empty();
    }

    private static String difference(Set<String> named, Set<String> held) {
        List<String> out = new ArrayList<>();
        named.stream().filter(k -> !held.contains(k)).limit(3).forEach(k -> out.add("not in the ledger: " + k));
        held.stream().filter(k -> !named.contains(k)).limit(3).forEach(k -> out.add("not named: " + k));
        return String.join("; ", out);
    }

    private static List<ExpiredObject> objectsOf(CheckpointStepEvidence step) {
        return step.asset().objects().stream()
                .sorted(Comparator.comparing(ObjectEvidence::store).thenComparing(ObjectEvidence::key))
                .map(o -> new ExpiredObject(o.store(), o.bucket(), o.key(), o.bytes())).toList();
    }

    /** One step that may be deleted, with the ledger's objects of it (store, bucket, key, bytes). */
    public record Deletion(long step, List<ExpiredObject> objects) {
    }

    /** The steps to delete and the refusals, each ascending by step as the decision lists them. */
    public record Result(List<Deletion> deletions, List<Refusal> refusals) {
    }
}
