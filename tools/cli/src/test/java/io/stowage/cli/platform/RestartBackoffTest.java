package io.stowage.cli.platform;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RestartBackoffTest {
    private final RestartBackoff backoff = RestartBackoff.DEFAULT;

    @Test
    void theDelayDoublesFromOneSecondAndStopsAtThirty() {
        assertThat(backoff.delay(0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(1)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delay(4)).isEqualTo(Duration.ofSeconds(16));
        assertThat(backoff.delay(5)).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delay(1_000)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aServiceThatStayedUpAMinuteStartsANewSeries() {
        assertThat(backoff.series(Duration.ofSeconds(59), 4)).isEqualTo(4);
        assertThat(backoff.series(Duration.ofSeconds(60), 4)).isZero();
    }

    @Test
    void aZeroOrInvertedBackoffIsRefused() {
        assertThatThrownBy(() -> new RestartBackoff(Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RestartBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
