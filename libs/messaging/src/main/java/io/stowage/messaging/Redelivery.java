package io.stowage.messaging;

import java.time.Duration;

/**
 * The bound and backoff of {@link IncomingEvents}' retries of a transiently failed record: attempt {@code n} (from 1)
 * is followed by a pause of {@code min(initialBackoff x 2^(n-1), maxBackoff)} before attempt {@code n + 1}, and
 * there are at most {@code attempts} attempts (the first included).
 *
 * @param attempts       at least 1; 1 = no retry
 * @param initialBackoff pause after the first attempt
 * @param maxBackoff     longest pause
 */
public record Redelivery(int attempts, Duration initialBackoff, Duration maxBackoff) {
    public Redelivery {
        if (attempts < 1 || initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("redelivery needs attempts >= 1 and 0 <= initial-backoff <= max-backoff");
        }
    }

    /** @return the pause after attempt {@code attempt} (1-based) */
    public Duration backoffAfter(int attempt) {
        Duration pause = initialBackoff;
        for (int i = 1; i < attempt && pause.compareTo(maxBackoff) < 0; i++) {
            pause = pause.multipliedBy(2);
        }
        return pause.compareTo(maxBackoff) > 0 ? maxBackoff : pause;
    }

    /**
     * Sleeps the calling (worker) thread for {@link #backoffAfter}.
     *
     * @return false when the thread was interrupted (the service is stopping); the interrupt flag is kept
     */
    boolean pauseAfter(int attempt) {
        try {
            Thread.sleep(backoffAfter(attempt).toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
