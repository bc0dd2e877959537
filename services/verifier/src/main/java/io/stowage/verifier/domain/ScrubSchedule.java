package io.stowage.verifier.domain;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;

/**
 * When the rolling scrub re-reads an object: consumes an object key and produces its fixed place in the
 * scrub period, so that windows laid end to end over one period make every key due exactly once (the
 * idea of restic's {@code check --read-data-subset n/t}, with t as fine as the window). The place is
 * drawn from SHA-256("scrub" + seed + key): the same for every restart and replica of the verifier, and
 * independent of the full-read sample. Not wired to a scheduler yet (services/verifier/README.md).
 */
public final class ScrubSchedule {
    private final long periodMillis;
    private final long seed;

    /**
     * @param period every object is due once per period, at least one millisecond
     * @param seed   salt of the places; another seed spreads keys differently
     */
    public ScrubSchedule(Duration period, long seed) {
        if (period.toMillis() < 1) {
            throw new IllegalArgumentException("scrub period must be at least 1 ms: " + period);
        }
        this.periodMillis = period.toMillis();
        this.seed = seed;
    }

    /** @return the key's place in the period, in milliseconds from the period's start, in [0, period) */
    public long placeMillis(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("scrub\n" + seed + "\n" + key).getBytes(StandardCharsets.UTF_8));
            return Math.floorMod(ByteBuffer.wrap(digest).getLong(), periodMillis);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Periods start at the Unix epoch, so every instance agrees on them.
     *
     * @param from end of the previous window (exclusive)
     * @param to   end of this window (inclusive), not before {@code from}
     * @return true when the key's place lies in (from, to]; a window of a whole period or more holds every key
     */
    public boolean due(String key, Instant from, Instant to) {
        long start = from.toEpochMilli();
        long end = to.toEpochMilli();
        if (end < start) {
            throw new IllegalArgumentException("window ends before it starts: " + from + " .. " + to);
        }
        if (end - start >= periodMillis) {
            return true;
        }
        long place = placeMillis(key);
        long first = Math.floorMod(start, periodMillis);
        long distance = Math.floorMod(place - first, periodMillis); // from the window's start to the key's place
        return distance > 0 && distance <= end - start;
    }
}
