package io.stowage.cli.retention.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides, for every stored step of one run, keep or expire: the union of the policy's rules keeps, and the
 * protections keep whatever the policy says (latest.json's step, the newest verified step, pins, a step a model
 * revision was promoted from whatever its pins say, unverified steps, the newest verified step older than an
 * unverified one, leased steps, and — unless the policy turns it off — best tags and key checkpoints). The policy's rules: keep-last (the N newest verified steps), keep-best (the K best verified
 * steps by the metric, a tie going to the newer step), keep-every (step numbers that are multiples of M),
 * keep-interval (in each window of the interval's length, windows aligned to 1970-01-01T00:00:00Z, the
 * highest-numbered verified step published in it) and the TTL of temporary steps. A step is expired only when no reason keeps it. Pure: the same facts give the same
 * decisions, so a restart or a resume never changes what is kept.
 */
public final class RetentionRules {
    private RetentionRules() {
    }

    /**
     * @param policy     the run's policy
     * @param steps      every stored (not yet expired) step of the run, any order; step numbers unique
     * @param latestStep the step {@code latest.json} names; null when the run has none
     * @param now        the time TTLs are measured at
     * @return one decision per step, ascending by step
     * @throws IllegalArgumentException when two facts name the same step
     */
    public static List<StepDecision> decide(RetentionPolicy policy, List<StepFacts> steps, Long latestStep, Instant now) {
        Map<Long, Set<KeepReason>> reasons = new TreeMap<>();
        for (StepFacts s : steps) {
            if (reasons.put(s.step(), EnumSet.noneOf(KeepReason.class)) != null) {
                throw new IllegalArgumentException("step " + s.step() + " is listed twice");
            }
        }
        List<StepFacts> verified = steps.stream().filter(StepFacts::verified)
                .sorted(Comparator.comparingLong(StepFacts::step).reversed()).toList();
        protections(policy, steps, verified, latestStep, reasons);
        if (policy.keepLast() != null) {
            verified.stream().limit(policy.keepLast()).forEach(s -> reasons.get(s.step()).add(KeepReason.KEEP_LAST));
        }
        if (policy.keepBest() != null) {
            best(policy, verified).forEach(s -> reasons.get(s.step()).add(KeepReason.KEEP_BEST));
        }
        if (policy.keepInterval() != null) {
            interval(policy, verified, reasons);
        }
        for (StepFacts s : steps) {
            Set<KeepReason> r = reasons.get(s.step());
            if (policy.keepEvery() != null && s.step() % policy.keepEvery() == 0) {
                r.add(KeepReason.KEEP_EVERY);
            }
            ttl(policy, s, now, r);
        }
        List<StepDecision> out = new ArrayList<>();
        reasons.forEach((step, r) -> out.add(new StepDecision(step, List.copyOf(r))));
        return out;
    }

    private static void protections(RetentionPolicy policy, List<StepFacts> steps, List<StepFacts> verified,
                                     Long latestStep, Map<Long, Set<KeepReason>> reasons) {
        if (latestStep != null && reasons.containsKey(latestStep)) {
            reasons.get(latestStep).add(KeepReason.LATEST);
        }
        if (!verified.isEmpty()) {
            reasons.get(verified.get(0).step()).add(KeepReason.NEWEST_VERIFIED);
        }
        for (StepFacts s : steps) {
            Set<KeepReason> r = reasons.get(s.step());
            when(s.pinned(), r, KeepReason.PINNED);
            when(!s.promotedTo().isEmpty(), r, KeepReason.PROMOTED);
            when(policy.tagsArePins() && s.tags().contains(RetentionPolicy.BEST_TAG), r, KeepReason.BEST_TAG);
            when(policy.tagsArePins() && s.key(), r, KeepReason.KEY);
            when(!s.verified(), r, KeepReason.UNVERIFIED);
            when(s.leased(), r, KeepReason.LEASED);
            if (!s.verified()) {
                // the step it would replace: the newest verified step older than it
                verified.stream().filter(v -> v.step() < s.step()).findFirst()
                        .ifPresent(v -> reasons.get(v.step()).add(KeepReason.REPLACEMENT_UNVERIFIED));
            }
        }
    }

    private static List<StepFacts> best(RetentionPolicy policy, List<StepFacts> verified) {
        Comparator<StepFacts> byMetric = Comparator.comparingDouble(s -> s.metrics().get(policy.metric()));
        if (policy.mode() == RetentionPolicy.Mode.MAX) {
            byMetric = byMetric.reversed();
        }
        // on a tie the newer step ranks first
        return verified.stream().filter(s -> s.metrics().containsKey(policy.metric()))
                .sorted(byMetric.thenComparing(Comparator.comparingLong(StepFacts::step).reversed()))
                .limit(policy.keepBest()).toList();
    }

    // one verified step per window of keepInterval, windows aligned to the epoch, placed by publish time: the newest
    // (highest step) of each window; a verified step with no publish time cannot be placed and is kept (unclear ⇒ keep)
    private static void interval(RetentionPolicy policy, List<StepFacts> verified, Map<Long, Set<KeepReason>> reasons) {
        long windowMillis = policy.keepInterval().toMillis();
        Map<Long, Long> newestPerWindow = new TreeMap<>();
        for (StepFacts s : verified) {
            if (s.publishedAt() == null) {
                reasons.get(s.step()).add(KeepReason.UNKNOWN_AGE);
                continue;
            }
            newestPerWindow.merge(Math.floorDiv(s.publishedAt().toEpochMilli(), windowMillis), s.step(), Math::max);
        }
        newestPerWindow.values().forEach(step -> reasons.get(step).add(KeepReason.KEEP_INTERVAL));
    }

    private static void ttl(RetentionPolicy policy, StepFacts s, Instant now, Set<KeepReason> r) {
        boolean temporary = s.tags().contains(RetentionPolicy.TEMPORARY_TAG);
        boolean ttlApplies = temporary && policy.temporaryTtl() != null;
        if (!ttlApplies) {
            when(!policy.hasCountRule(), r, KeepReason.NO_RULE);
            return;
        }
        if (s.publishedAt() == null) {
            r.add(KeepReason.UNKNOWN_AGE);
        } else if (now.isBefore(s.publishedAt().plus(policy.temporaryTtl()))) {
            r.add(KeepReason.TTL);
        }
    }

    private static void when(boolean condition, Set<KeepReason> reasons, KeepReason reason) {
        if (condition) {
            reasons.add(reason);
        }
    }
}
