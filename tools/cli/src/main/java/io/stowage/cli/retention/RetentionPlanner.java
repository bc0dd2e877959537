package io.stowage.cli.retention;

import io.stowage.cli.retention.domain.KeepReason;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.cli.retention.domain.RetentionRules;
import io.stowage.cli.retention.domain.StepDecision;
import io.stowage.cli.retention.domain.StepFacts;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the ledger's view of a run ({@link RunCheckpoints}) and a policy into a {@link RetentionPlan}: the facts of
 * every stored step go through {@link RetentionRules}, and each step carries its keys and bytes per store. Steps the
 * ledger already records as expired are left out. A step is leased when the end of its latest fetch lease
 * ({@link CheckpointStepEvidence#leasedUntil()}) is after {@code now}.
 */
public final class RetentionPlanner {
    private RetentionPlanner() {
    }

    /**
     * @param latestStep the step latest.json names, or null when the run has none
     * @param now        when the plan is evaluated
     */
    public static RetentionPlan plan(RunCheckpoints run, RetentionPolicy policy, Long latestStep, Instant now) {
        List<CheckpointStepEvidence> stored = run.steps().stream().filter(s -> s.expiredEventId() == null).toList();
        List<StepFacts> facts = stored.stream().map(s -> new StepFacts(s.step(), StepVerification.verified(s), s.pinned(),
                s.asset().keyCheckpoint(), s.tags(), s.metrics(), s.publishedAt(), s.leasedAt(now), s.promotedTo())).toList();
        List<StepDecision> decisions = RetentionRules.decide(policy, facts, latestStep, now);
        List<RetentionPlan.Step> steps = new ArrayList<>();
        Map<String, List<String>> freedKeys = new TreeMap<>();
        Map<String, Long> freedBytes = new TreeMap<>();
        for (int i = 0; i < stored.size(); i++) {
            CheckpointStepEvidence s = stored.get(i);
            StepDecision d = decisions.stream().filter(x -> x.step() == s.step()).findFirst().orElseThrow();
            Map<String, RetentionPlan.StoreObjects> stores = stores(s.asset().objects());
            if (d.expired()) {
                stores.forEach((store, objects) -> {
                    freedKeys.computeIfAbsent(store, k -> new ArrayList<>()).addAll(objects.keys());
                    freedBytes.merge(store, objects.bytes(), Long::sum);
                });
            }
            steps.add(new RetentionPlan.Step(s.step(), d.expired() ? "expire" : "keep",
                    d.reasons().stream().map(KeepReason::label).toList(), facts.get(i).verified(), s.metrics(), s.tags(),
                    s.pinned(), stores, s.promotedTo(), cold(policy, d, s.publishedAt(), now)));
        }
        Map<String, RetentionPlan.StoreObjects> freed = new TreeMap<>();
        freedKeys.forEach((store, keys) -> freed.put(store, new RetentionPlan.StoreObjects(List.copyOf(keys), freedBytes.get(store))));
        return new RetentionPlan(run.experiment(), run.run(), describe(policy), latestStep, now, steps, freed, null);
    }

    // reasons that mean a resume may read the step soon: such a step stays in the standard class whatever its age
    private static final java.util.Set<KeepReason> ACTIVE = java.util.EnumSet.of(KeepReason.LATEST,
            KeepReason.NEWEST_VERIFIED, KeepReason.LEASED, KeepReason.UNVERIFIED, KeepReason.REPLACEMENT_UNVERIFIED);

    /**
     * @return the policy's cheaper storage class for a kept step published at least {@code coldAfter} before
     *         {@code now} and kept by no {@link #ACTIVE} reason; null for an expired, active, younger or undated step
     */
    static String cold(RetentionPolicy policy, StepDecision d, Instant publishedAt, Instant now) {
        if (policy.coldAfter() == null || d.expired() || publishedAt == null
                || publishedAt.plus(policy.coldAfter()).isAfter(now)
                || d.reasons().stream().anyMatch(ACTIVE::contains)) {
            return null;
        }
        return policy.coldClass();
    }

    private static Map<String, RetentionPlan.StoreObjects> stores(List<ObjectEvidence> objects) {
        Map<String, List<ObjectEvidence>> byStore = new TreeMap<>();
        objects.forEach(o -> byStore.computeIfAbsent(o.store(), k -> new ArrayList<>()).add(o));
        Map<String, RetentionPlan.StoreObjects> out = new TreeMap<>();
        byStore.forEach((store, list) -> out.put(store, new RetentionPlan.StoreObjects(
                list.stream().map(ObjectEvidence::key).sorted().toList(), list.stream().mapToLong(ObjectEvidence::bytes).sum())));
        return out;
    }

    /** @return the policy's set fields by name, e.g. {@code {"keepLast":2,"tagsPin":true}} */
    public static Map<String, Object> describe(RetentionPolicy p) {
        Map<String, Object> out = new LinkedHashMap<>();
        put(out, "keepLast", p.keepLast());
        put(out, "keepBest", p.keepBest());
        put(out, "metric", p.metric());
        put(out, "mode", p.mode() == null ? null : p.mode().name().toLowerCase(java.util.Locale.ROOT));
        put(out, "keepEvery", p.keepEvery());
        put(out, "keepInterval", p.keepInterval() == null ? null : p.keepInterval().toString());
        put(out, "temporaryTtl", p.temporaryTtl() == null ? null : p.temporaryTtl().toString());
        out.put("tagsPin", p.tagsArePins());
        put(out, "coldAfter", p.coldAfter() == null ? null : p.coldAfter().toString());
        put(out, "coldStorageClass", p.coldClass());
        return out;
    }

    private static void put(Map<String, Object> out, String name, Object value) {
        if (value != null) {
            out.put(name, value);
        }
    }
}
