package io.stowage.verifier.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ScrubCandidate;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ScrubPlanTest {
    private static final Instant T0 = Instant.parse("2020-01-01T00:00:00Z");
    private static final Duration PERIOD = Duration.ofHours(10);

    private static ScrubCandidate object(String key, long bytes, Instant lastRead) {
        return new ScrubCandidate("primary", "b", key, "dataset/x/r1", ObjectKind.SHARD, bytes, "0".repeat(64), "/x",
                T0, lastRead, lastRead == null ? null : VerifyResult.OK);
    }

    @Test
    void takesObjectsInOrderWhileAllowanceIsLeftAndTheLastMayOverdrawIt() {
        List<ScrubCandidate> due = List.of(object("a", 400, null), object("b", 400, null), object("c", 400, null));
        assertThat(ScrubPlan.choose(due, 500, T0.plus(PERIOD), PERIOD)).extracting(ScrubCandidate::key)
                .containsExactly("a", "b");
        assertThat(ScrubPlan.choose(due, 400, T0.plus(PERIOD), PERIOD)).extracting(ScrubCandidate::key)
                .containsExactly("a");
        assertThat(ScrubPlan.choose(due, 0, T0.plus(PERIOD), PERIOD)).isEmpty();
    }

    @Test
    void stopsAtTheFirstObjectReReadLessThanHalfAPeriodAgo() {
        Instant now = T0.plus(PERIOD);
        List<ScrubCandidate> due = List.of(object("old", 1, now.minus(Duration.ofHours(6))),
                object("fresh", 1, now.minus(Duration.ofHours(4))), object("fresher", 1, now.minusSeconds(1)));
        assertThat(ScrubPlan.choose(due, 1000, now, PERIOD)).extracting(ScrubCandidate::key).containsExactly("old");
    }

    /** The promise: with a budget of (bytes ÷ period), hourly ticks in least-recently-read order re-read every object within the period. */
    @Test
    void aBudgetOfTheStoreOverThePeriodReReadsEveryObjectWithinThePeriod() {
        long[] sizes = {700, 50, 1300, 20, 980, 400, 400, 3000, 5, 1145};
        long total = 0;
        Map<String, Instant> lastRead = new HashMap<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            keys.add("k" + i);
            total += sizes[i];
        }
        ScrubBudget budget = new ScrubBudget(total / PERIOD.toHours() + 1);
        Map<String, Duration> longestGap = new HashMap<>();
        for (int hour = 1; hour <= 60; hour++) {
            Instant now = T0.plus(Duration.ofHours(hour));
            List<ScrubCandidate> due = new ArrayList<>();
            for (int i = 0; i < sizes.length; i++) {
                due.add(object(keys.get(i), sizes[i], lastRead.get(keys.get(i))));
            }
            due.sort(Comparator.comparing((ScrubCandidate c) -> c.lastFullReadAt() == null ? Instant.MIN : c.lastFullReadAt())
                    .thenComparing(ScrubCandidate::key));
            for (ScrubCandidate c : ScrubPlan.choose(due, budget.refill(now), now, PERIOD)) {
                budget.spend(c.bytes());
                Instant since = lastRead.getOrDefault(c.key(), T0);
                longestGap.merge(c.key(), Duration.between(since, now), (a, b) -> a.compareTo(b) >= 0 ? a : b);
                lastRead.put(c.key(), now);
            }
        }
        assertThat(longestGap).hasSize(sizes.length);
        assertThat(longestGap.values()).allSatisfy(gap -> assertThat(gap).isLessThanOrEqualTo(PERIOD));
    }

    @Test
    void theReasonSaysNeverOrWhenLast() {
        assertThat(ScrubPlan.reason(object("a", 1, null))).isEqualTo("scrub: never re-read (uploaded 2020-01-01T00:00:00Z)");
        assertThat(ScrubPlan.reason(object("a", 1, T0.plusSeconds(60))))
                .isEqualTo("scrub: least recently re-read (last 2020-01-01T00:01:00Z, OK)");
    }
}
