package io.stowage.cli.retention.domain;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For random runs (steps, verification, metrics, tags, pins, ages) and random policies (keep-interval included), the expired set never holds a
 * step a rule keeps, latest.json's step, the newest verified step, a pinned, promoted, unverified or leased step; and a step
 * no reason keeps is expired.
 */
class RetentionRulesProperties {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    record Run(List<StepFacts> steps, Long latest) {
    }

    @Property(tries = 500)
    void theExpiredSetHoldsNothingARuleOrAProtectionKeeps(@ForAll("runs") Run run, @ForAll("policies") RetentionPolicy policy) {
        List<StepDecision> decisions = RetentionRules.decide(policy, run.steps(), run.latest(), NOW);
        Set<Long> expired = new HashSet<>();
        decisions.stream().filter(StepDecision::expired).forEach(d -> expired.add(d.step()));

        assertThat(decisions).hasSize(run.steps().size());
        List<StepFacts> verified = run.steps().stream().filter(StepFacts::verified)
                .sorted(Comparator.comparingLong(StepFacts::step).reversed()).toList();
        if (run.latest() != null) {
            assertThat(expired).doesNotContain(run.latest());
        }
        if (!verified.isEmpty()) {
            assertThat(expired).doesNotContain(verified.get(0).step());
        }
        for (StepFacts s : run.steps()) {
            if (s.pinned() || !s.verified() || s.leased() || !s.promotedTo().isEmpty()) {
                assertThat(expired).doesNotContain(s.step());
            }
            if (policy.keepEvery() != null && s.step() % policy.keepEvery() == 0) {
                assertThat(expired).doesNotContain(s.step());
            }
            if (policy.tagsArePins() && (s.key() || s.tags().contains("best"))) {
                assertThat(expired).doesNotContain(s.step());
            }
        }
        if (policy.keepInterval() != null) {
            // the newest verified step of every window is kept, and so is a verified step with no publish time
            Map<Long, Long> newest = new java.util.HashMap<>();
            for (StepFacts s : verified) {
                if (s.publishedAt() == null) {
                    assertThat(expired).doesNotContain(s.step());
                } else {
                    newest.merge(s.publishedAt().toEpochMilli() / policy.keepInterval().toMillis(), s.step(), Math::max);
                }
            }
            newest.values().forEach(step -> assertThat(expired).doesNotContain(step));
        }
        if (policy.keepLast() != null) {
            verified.stream().limit(policy.keepLast()).forEach(s -> assertThat(expired).doesNotContain(s.step()));
        }
        if (policy.keepBest() != null) {
            // every verified step at least as good as the K-th best (by the metric) is kept
            List<Double> values = verified.stream().filter(s -> s.metrics().containsKey(policy.metric()))
                    .map(s -> s.metrics().get(policy.metric()))
                    .sorted(policy.mode() == RetentionPolicy.Mode.MIN ? Comparator.naturalOrder() : Comparator.reverseOrder())
                    .toList();
            if (!values.isEmpty()) {
                double kth = values.get(Math.min(policy.keepBest(), values.size()) - 1);
                verified.stream().filter(s -> s.metrics().containsKey(policy.metric()))
                        .filter(s -> policy.mode() == RetentionPolicy.Mode.MIN
                                ? s.metrics().get(policy.metric()) < kth : s.metrics().get(policy.metric()) > kth)
                        .forEach(s -> assertThat(expired).doesNotContain(s.step()));
            }
        }
        if (!policy.hasCountRule() && policy.temporaryTtl() == null) {
            assertThat(expired).as("a policy with no rule keeps everything").isEmpty();
        }
    }

    @Provide
    Arbitrary<Run> runs() {
        Arbitrary<StepFacts> step = Combinators.combine(
                Arbitraries.longs().between(0, 60).map(n -> n * 10),
                Arbitraries.integers().between(0, 9).map(i -> i > 1),   // mostly verified
                Arbitraries.integers().between(0, 9).map(i -> i == 0),  // sometimes pinned
                Arbitraries.integers().between(0, 9).map(i -> i == 0),  // sometimes key
                Arbitraries.of(List.<String>of(), List.of("temporary"), List.of("best"), List.of("temporary", "best")),
                Arbitraries.doubles().between(0, 1).ofScale(1).optional(),
                Arbitraries.integers().between(-1, 20).map(days -> days < 0 ? null : NOW.minus(Duration.ofDays(days))),
                Arbitraries.integers().between(0, 19).map(i -> i == 0))
                .as((n, v, p, k, tags, loss, at, leased) -> new StepFacts(n, v, p, k, tags,
                        loss.map(l -> Map.of("val_loss", l)).orElse(Map.of()), at, leased));
        // sometimes a model revision was promoted from the step (its pin may have been lifted since)
        Arbitrary<StepFacts> promotedOrNot = Combinators.combine(step, Arbitraries.integers().between(0, 7))
                .as((s, i) -> i != 0 ? s : new StepFacts(s.step(), s.verified(), s.pinned(), s.key(), s.tags(), s.metrics(),
                        s.publishedAt(), s.leased(), List.of("model/m/r" + s.step())));
        return promotedOrNot.list().ofMaxSize(25).uniqueElements(StepFacts::step).flatMap(steps -> {
            Arbitrary<Long> latest = steps.isEmpty() ? Arbitraries.just(null)
                    : Arbitraries.of(steps.stream().map(StepFacts::step).toList()).injectNull(0.2);
            return latest.map(l -> new Run(steps, l));
        });
    }

    @Provide
    Arbitrary<RetentionPolicy> policies() {
        Arbitrary<Integer> count = Arbitraries.integers().between(1, 5).injectNull(0.4);
        return Combinators.combine(count, count, Arbitraries.of(RetentionPolicy.Mode.values()),
                        Arbitraries.of(10, 20, 30, 70).injectNull(0.5),
                        Arbitraries.of(Duration.ofHours(12), Duration.ofDays(1), Duration.ofDays(5)).injectNull(0.5),
                        Arbitraries.of(Duration.ofDays(3), Duration.ofDays(7)).injectNull(0.5),
                        Arbitraries.of(Boolean.TRUE, Boolean.FALSE).injectNull(0.3))
                .as((last, best, mode, every, interval, ttl, tagsPin) -> new RetentionPolicy(last, best,
                        best == null ? null : "val_loss", best == null ? null : mode, every, interval, ttl, tagsPin));
    }
}
