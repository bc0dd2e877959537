package io.stowage.cli.retention.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.stowage.cli.retention.domain.KeepReason.KEEP_BEST;
import static io.stowage.cli.retention.domain.KeepReason.KEEP_LAST;
import static io.stowage.cli.retention.domain.KeepReason.LATEST;
import static io.stowage.cli.retention.domain.KeepReason.NEWEST_VERIFIED;
import static io.stowage.cli.retention.domain.KeepReason.REPLACEMENT_UNVERIFIED;
import static io.stowage.cli.retention.domain.KeepReason.UNVERIFIED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetentionRulesTest {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private static StepFacts step(long n, double loss) {
        return new StepFacts(n, true, false, false, List.of(), Map.of("val_loss", loss), NOW.minusSeconds(3600), false);
    }

    private static List<Long> expired(List<StepDecision> decisions) {
        return decisions.stream().filter(StepDecision::expired).map(StepDecision::step).toList();
    }

    private static List<KeepReason> reasonsOf(List<StepDecision> decisions, long step) {
        return decisions.stream().filter(d -> d.step() == step).findFirst().orElseThrow().reasons();
    }

    @Test
    void keepBestOneAndKeepLastOneKeepBothTheBestAndTheNewest() {
        // the best is an old step: keeping the best must not lose the newest (the step latest.json names)
        List<StepFacts> steps = List.of(step(100, 0.9), step(200, 0.2), step(300, 0.5), step(400, 0.7));
        RetentionPolicy policy = new RetentionPolicy(1, 1, "val_loss", RetentionPolicy.Mode.MIN, null, null, null);

        List<StepDecision> d = RetentionRules.decide(policy, steps, 400L, NOW);

        assertThat(expired(d)).containsExactly(100L, 300L);
        assertThat(reasonsOf(d, 200)).containsExactly(KEEP_BEST);
        assertThat(reasonsOf(d, 400)).containsExactly(LATEST, NEWEST_VERIFIED, KEEP_LAST);
    }

    @Test
    void aStepIsNotExpiredWhileItsNewerReplacementIsUnverified() {
        StepFacts inFlight = new StepFacts(300, false, false, false, List.of(), Map.of(), NOW, false);
        List<StepFacts> steps = List.of(step(100, 1), step(200, 1), inFlight);
        RetentionPolicy keepLastOne = new RetentionPolicy(1, null, null, null, null, null, null);

        List<StepDecision> d = RetentionRules.decide(keepLastOne, steps, 200L, NOW);

        assertThat(expired(d)).containsExactly(100L);
        assertThat(reasonsOf(d, 200)).contains(NEWEST_VERIFIED, REPLACEMENT_UNVERIFIED, KEEP_LAST);
        assertThat(reasonsOf(d, 300)).containsExactly(UNVERIFIED);

        // once 300 is verified, 200 goes (and only then)
        List<StepDecision> later = RetentionRules.decide(keepLastOne, List.of(step(100, 1), step(200, 1), step(300, 1)), 300L, NOW);
        assertThat(expired(later)).containsExactly(100L, 200L);
    }

    @Test
    void aRunResumedFromStepThreeHundredWithKeepLastTwoHasExactlyTwoRecentSteps() {
        // trained to 400, crashed, resumed from 300: 400 was published again, then 500 and 600; the decision is
        // made from the stored facts alone, so the resume cannot make it keep more (or fewer) than two
        List<StepFacts> steps = new ArrayList<>();
        for (long n = 100; n <= 600; n += 100) {
            steps.add(step(n, 1));
        }
        RetentionPolicy keepLastTwo = new RetentionPolicy(2, null, null, null, null, null, null);

        List<StepDecision> d = RetentionRules.decide(keepLastTwo, steps, 600L, NOW);

        assertThat(d.stream().filter(s -> !s.expired()).map(StepDecision::step)).containsExactly(500L, 600L);
        assertThat(expired(d)).containsExactly(100L, 200L, 300L, 400L);
    }

    @Test
    void pinsBestTagsAndKeyCheckpointsAreKeptAndTheTagsOnlyWhileThePolicySaysSo() {
        StepFacts pinned = new StepFacts(100, true, true, false, List.of(), Map.of(), NOW, false);
        StepFacts best = new StepFacts(200, true, false, false, List.of("best"), Map.of(), NOW, false);
        StepFacts key = new StepFacts(300, true, false, true, List.of(), Map.of(), NOW, false);
        List<StepFacts> steps = List.of(pinned, best, key, step(400, 1));
        RetentionPolicy keepLastOne = new RetentionPolicy(1, null, null, null, null, null, null);

        assertThat(expired(RetentionRules.decide(keepLastOne, steps, 400L, NOW))).isEmpty();
        assertThat(expired(RetentionRules.decide(keepLastOne.with(new RetentionPolicy(null, null, null, null, null, null,
                false)), steps, 400L, NOW))).containsExactly(200L, 300L);
    }

    @Test
    void temporaryStepsExpireAfterTheirTtlUnlessAnotherRuleKeepsThem() {
        List<String> tmp = List.of("temporary");
        StepFacts old = new StepFacts(10, true, false, false, tmp, Map.of("val_loss", 0.1), NOW.minus(Duration.ofDays(8)), false);
        StepFacts oldWorse = new StepFacts(20, true, false, false, tmp, Map.of("val_loss", 0.9), NOW.minus(Duration.ofDays(8)), false);
        StepFacts young = new StepFacts(30, true, false, false, tmp, Map.of("val_loss", 0.8), NOW.minus(Duration.ofDays(1)), false);
        StepFacts noAge = new StepFacts(40, true, false, false, tmp, Map.of("val_loss", 0.8), null, false);
        StepFacts plain = step(50, 0.7);
        RetentionPolicy ttlAndBest = new RetentionPolicy(null, 1, "val_loss", RetentionPolicy.Mode.MIN, null,
                Duration.ofDays(7), null);
        RetentionPolicy ttlOnly = new RetentionPolicy(null, null, null, null, null, Duration.ofDays(7), null);

        List<StepDecision> d = RetentionRules.decide(ttlAndBest, List.of(old, oldWorse, young, noAge, plain), 50L, NOW);
        assertThat(expired(d)).containsExactly(20L);
        assertThat(reasonsOf(d, 10)).containsExactly(KEEP_BEST);
        assertThat(reasonsOf(d, 40)).containsExactly(KeepReason.UNKNOWN_AGE);
        // with the TTL alone, a step not tagged temporary is under no rule, and kept
        assertThat(expired(RetentionRules.decide(ttlOnly, List.of(old, oldWorse, young, plain, step(60, 1)), 60L, NOW)))
                .containsExactly(10L, 20L);
    }

    @Test
    void keepIntervalKeepsTheNewestVerifiedStepOfEachWindowByPublishTime() {
        Instant day = Instant.parse("2026-11-28T00:00:00Z");
        List<StepFacts> steps = List.of(
                at(100, day.plusSeconds(3600), true),        // day 1, 01:00
                at(200, day.plusSeconds(5 * 3600), true),    // day 1, 05:00: newest of 00:00-06:00
                at(300, day.plusSeconds(7 * 3600), true),    // day 1, 07:00: newest verified of 06:00-12:00
                at(400, day.plusSeconds(8 * 3600), false),   // day 1, 08:00, not verified: protected, not the window's pick
                at(500, day.plusSeconds(30 * 3600), true),   // day 2, 06:00: its own window
                at(600, null, true),                         // no publish time: cannot be placed, kept
                at(700, day.plusSeconds(30 * 3600 + 60), true),
                at(800, day.plusSeconds(40 * 3600), true));  // newest
        RetentionPolicy policy = new RetentionPolicy(null, null, null, null, null, Duration.ofHours(6), null, null);

        List<StepDecision> d = RetentionRules.decide(policy, steps, 800L, NOW);

        assertThat(expired(d)).containsExactly(100L, 500L);
        assertThat(reasonsOf(d, 200)).containsExactly(KeepReason.KEEP_INTERVAL);
        assertThat(reasonsOf(d, 300)).containsExactly(REPLACEMENT_UNVERIFIED, KeepReason.KEEP_INTERVAL);
        assertThat(reasonsOf(d, 400)).containsExactly(UNVERIFIED);
        assertThat(reasonsOf(d, 600)).containsExactly(KeepReason.UNKNOWN_AGE);
        assertThat(reasonsOf(d, 700)).containsExactly(KeepReason.KEEP_INTERVAL);
        // one per day: the windows are calendar days in UTC
        assertThat(expired(RetentionRules.decide(new RetentionPolicy(null, null, null, null, null, Duration.ofDays(1),
                null, null), steps, 800L, NOW))).containsExactly(100L, 200L, 500L, 700L);
        assertThatThrownBy(() -> new RetentionPolicy(null, null, null, null, null, Duration.ZERO, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepInterval");
        // a window shorter than the millisecond the rule counts in would divide by zero: refused, not a crash
        assertThatThrownBy(() -> new RetentionPolicy(null, null, null, null, null, Duration.ofNanos(500), null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepInterval must be at least 1 second");
    }

    private static StepFacts at(long n, Instant publishedAt, boolean verified) {
        return new StepFacts(n, verified, false, false, List.of(), Map.of(), publishedAt, false);
    }

    @Test
    void keepEveryKeepsMultiplesAndMaxModeRanksUpward() {
        List<StepFacts> steps = List.of(step(100, 0.9), step(150, 0.1), step(200, 0.5), step(250, 0.3));
        RetentionPolicy policy = new RetentionPolicy(null, 1, "val_loss", RetentionPolicy.Mode.MAX, 100, null, null);

        List<StepDecision> d = RetentionRules.decide(policy, steps, 250L, NOW);

        assertThat(expired(d)).containsExactly(150L);
        assertThat(reasonsOf(d, 100)).containsExactly(KEEP_BEST, KeepReason.KEEP_EVERY);
    }

    @Test
    void noRuleKeepsEverythingAndABadPolicyIsRefused() {
        assertThat(expired(RetentionRules.decide(RetentionPolicy.NONE, List.of(step(1, 1), step(2, 1)), 2L, NOW))).isEmpty();
        assertThatThrownBy(() -> new RetentionPolicy(0, null, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepLast");
        assertThatThrownBy(() -> new RetentionPolicy(null, 2, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("metric");
        assertThatThrownBy(() -> RetentionRules.decide(RetentionPolicy.NONE, List.of(step(1, 1), step(1, 2)), null, NOW))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStepAModelRevisionNamesIsKeptAfterItsPinIsLiftedAndOnlyThatStep() {
        // the promote-time pin was lifted by an operator's unpin: pinned is false, the revision still names the step
        StepFacts promoted = new StepFacts(100, true, false, false, List.of(), Map.of("val_loss", 0.9),
                NOW.minusSeconds(3600), false, List.of("model/tiny/r1"));
        StepFacts temporaryPromoted = new StepFacts(200, true, false, false, List.of("temporary"), Map.of("val_loss", 0.8),
                NOW.minus(Duration.ofDays(30)), false, List.of("model/tiny/r2", "model/tiny/r3"));
        List<StepFacts> steps = List.of(promoted, temporaryPromoted, step(300, 0.7), step(400, 0.6), step(500, 0.5));
        RetentionPolicy keepLastOne = new RetentionPolicy(1, null, null, null, null, Duration.ofDays(7), null);

        List<StepDecision> d = RetentionRules.decide(keepLastOne, steps, 500L, NOW);

        assertThat(expired(d)).as("only the steps no revision names").containsExactly(300L, 400L);
        assertThat(reasonsOf(d, 100)).containsExactly(KeepReason.PROMOTED);
        assertThat(reasonsOf(d, 200)).as("an expired TTL does not lift it either").containsExactly(KeepReason.PROMOTED);
        assertThat(KeepReason.PROMOTED.protects()).isTrue();
        assertThat(KeepReason.PROMOTED.label()).isEqualTo("promoted");
    }
}
