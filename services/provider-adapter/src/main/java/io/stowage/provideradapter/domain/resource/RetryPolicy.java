package io.stowage.provideradapter.domain.resource;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When to try an HTTP call to a provider again: after a 5xx or an I/O error (status 0) with exponential backoff
 * (base x 2^(attempt-1), at most {@code maxBackoff}); after a 429 as long as its {@code Retry-After} says (seconds
 * or an HTTP date; the backoff when absent or unreadable), at most {@code maxWait}; never after another status.
 *
 * @param maxAttempts total attempts including the first, at least 1
 */
public record RetryPolicy(int maxAttempts, Duration baseBackoff, Duration maxBackoff, Duration maxWait) {

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /** @return true for a status worth retrying: 0 (I/O error), 429, 5xx */
    public static boolean transientStatus(int status) {
        return status == 0 || status == 429 || status >= 500;
    }

    /**
     * @param attempt    the attempt that just failed, 1-based
     * @param status     its HTTP status, 0 for an I/O error
     * @param retryAfter its {@code Retry-After} header, null when absent
     * @param now        the current time (to read an HTTP-date Retry-After)
     * @return how long to wait before the next attempt, empty when there is none
     */
    public Optional<Duration> next(int attempt, int status, String retryAfter, Instant now) {
        if (!transientStatus(status) || attempt >= maxAttempts) {
            return Optional.empty();
        }
        Duration backoff = baseBackoff.multipliedBy(1L << Math.min(20, attempt - 1));
        backoff = backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
        if (status == 429 && retryAfter != null) {
            Duration asked = parse(retryAfter.trim(), now).orElse(backoff);
            return Optional.of(asked.compareTo(maxWait) > 0 ? maxWait : asked);
        }
        return Optional.of(backoff);
    }

    private static Optional<Duration> parse(String value, Instant now) {
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value))));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration wait = Duration.between(now, at);
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }
}
