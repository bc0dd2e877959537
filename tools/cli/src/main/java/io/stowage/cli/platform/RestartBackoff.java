package io.stowage.cli.platform;

import java.time.Duration;

/**
 * How long supervision waits before restarting a service that exited: {@code first}, doubled for each exit in a row,
 * never more than {@code max}; a service that stayed up for {@code stable} or longer starts again from {@code first}.
 *
 * @param first  delay before the first restart of a series (above zero)
 * @param max    largest delay (at least {@code first})
 * @param stable how long a service must stay up for its next exit to count as the first of a new series
 */
public record RestartBackoff(Duration first, Duration max, Duration stable) {
    /** 1 s doubling to 30 s; a minute up resets the series. */
    public static final RestartBackoff DEFAULT = new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30),
            Duration.ofSeconds(60));

    public RestartBackoff {
        if (first.isZero() || first.isNegative() || max.compareTo(first) < 0 || stable.isNegative()) {
            throw new IllegalArgumentException("backoff needs 0 < first <= max and stable >= 0, not " + first + ", "
                    + max + ", " + stable);
        }
    }

    /**
     * @param exitsInARow how many exits came before this one in the same series (0 for the first)
     * @return the delay before the restart: {@code first * 2^exitsInARow}, capped at {@code max}
     */
    public Duration delay(int exitsInARow) {
        Duration delay = first;
        for (int i = 0; i < exitsInARow && delay.compareTo(max) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(max) > 0 ? max : delay;
    }

    /**
     * @param upFor how long the service ran before it exited
     * @param exitsInARow exits in the current series before this one
     * @return the series count this exit continues: 0 when the service stayed up for {@code stable}, else {@code exitsInARow}
     */
    public int series(Duration upFor, int exitsInARow) {
        return upFor.compareTo(stable) >= 0 ? 0 : exitsInARow;
    }
}
