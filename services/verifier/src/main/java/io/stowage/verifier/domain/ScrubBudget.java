package io.stowage.verifier.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * The rolling scrub's byte allowance, a token bucket: consumes the instants of scrub ticks and the bytes re-read,
 * and produces how many bytes the next tick may still read. It fills at {@code bytesPerHour} up to one hour's
 * worth (so a verifier that was down does not catch up in one burst) and starts full. An object larger than what is
 * left is still read when anything is left: the bucket then goes into debt, which later ticks pay off, so the
 * average stays at the budget and no object is too large to ever be read. Not thread-safe.
 */
public final class ScrubBudget {
    private static final long MILLIS_PER_HOUR = Duration.ofHours(1).toMillis();
    private final long bytesPerHour;
    private long available;
    private Instant last;

    /**
     * @param bytesPerHour bytes the scrub may re-read per hour, at least 1
     * @throws IllegalArgumentException for a budget below 1 byte
     */
    public ScrubBudget(long bytesPerHour) {
        if (bytesPerHour < 1) {
            throw new IllegalArgumentException("scrub bytes-per-hour must be at least 1: " + bytesPerHour);
        }
        this.bytesPerHour = bytesPerHour;
        this.available = bytesPerHour;
    }

    /**
     * Adds what accrued since the previous call (nothing for an instant before it), capped at one hour's budget.
     *
     * @param now the tick's instant
     * @return bytes that may be read now; 0 or less when the bucket is empty or in debt
     */
    public long refill(Instant now) {
        if (last != null && now.isAfter(last)) {
            long millis = Duration.between(last, now).toMillis();
            double accrued = (double) bytesPerHour * millis / MILLIS_PER_HOUR;
            available = (long) Math.min(bytesPerHour, available + accrued);
        }
        if (last == null || now.isAfter(last)) {
            last = now;
        }
        return available;
    }

    /** @param bytes bytes just re-read (or planned), not negative; may take the bucket below 0 */
    public void spend(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        available -= bytes;
    }

    /** @return bytes the scrub may re-read per hour */
    public long bytesPerHour() {
        return bytesPerHour;
    }
}
