package io.stowage.verifier.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScrubBudgetTest {
    private static final Instant T0 = Instant.parse("2020-01-01T00:00:00Z");

    @Test
    void startsFullAndRefillsAtTheHourlyRateUpToOneHour() {
        ScrubBudget budget = new ScrubBudget(3600);
        assertThat(budget.refill(T0)).isEqualTo(3600);
        budget.spend(3000);
        assertThat(budget.refill(T0.plusSeconds(600))).isEqualTo(600 + 600);
        assertThat(budget.refill(T0.plus(Duration.ofDays(3)))).isEqualTo(3600);
    }

    @Test
    void anObjectLargerThanWhatIsLeftPutsTheBucketInDebtThatLaterTicksPayOff() {
        ScrubBudget budget = new ScrubBudget(1000);
        budget.refill(T0);
        budget.spend(2500);
        assertThat(budget.refill(T0)).isEqualTo(-1500);
        assertThat(budget.refill(T0.plus(Duration.ofHours(1)))).isEqualTo(-500);
        assertThat(budget.refill(T0.plus(Duration.ofMinutes(90)))).isEqualTo(0);
    }

    @Test
    void anInstantBeforeThePreviousAddsNothing() {
        ScrubBudget budget = new ScrubBudget(3600);
        budget.refill(T0);
        budget.spend(3600);
        assertThat(budget.refill(T0.minusSeconds(100))).isZero();
        assertThat(budget.refill(T0.plusSeconds(10))).isEqualTo(10);
    }

    @Test
    void refusesABudgetBelowOneByteAndNegativeSpending() {
        assertThatThrownBy(() -> new ScrubBudget(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScrubBudget(1).spend(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
