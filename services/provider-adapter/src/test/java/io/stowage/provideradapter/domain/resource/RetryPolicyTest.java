package io.stowage.provideradapter.domain.resource;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RetryPolicyTest {
    private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
    private final RetryPolicy policy = new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(3),
            Duration.ofSeconds(30));

    @Test
    void serverErrorsBackOffExponentiallyUpToTheMaximum() {
        assertThat(policy.next(1, 503, null, NOW)).contains(Duration.ofMillis(500));
        assertThat(policy.next(2, 500, null, NOW)).contains(Duration.ofMillis(1000));
        assertThat(policy.next(3, 0, null, NOW)).contains(Duration.ofMillis(2000));
        assertThat(policy.next(4, 503, null, NOW)).isEmpty();
        assertThat(new RetryPolicy(9, Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(30))
                .next(5, 502, null, NOW)).contains(Duration.ofSeconds(3));
    }

    @Test
    void rateLimitsWaitAsLongAsRetryAfterSaysButNoLongerThanTheMaximum() {
        assertThat(policy.next(1, 429, "7", NOW)).contains(Duration.ofSeconds(7));
        assertThat(policy.next(1, 429, "Mon, 30 Nov 2026 08:00:12 GMT", NOW)).contains(Duration.ofSeconds(12));
        assertThat(policy.next(1, 429, "3600", NOW)).contains(Duration.ofSeconds(30));
        assertThat(policy.next(1, 429, "soon", NOW)).contains(Duration.ofMillis(500));
    }

    @Test
    void clientErrorsAreNeverRetried() {
        assertThat(policy.next(1, 400, null, NOW)).isEmpty();
        assertThat(policy.next(1, 401, null, NOW)).isEmpty();
        assertThat(policy.next(1, 404, null, NOW)).isEmpty();
    }
}
