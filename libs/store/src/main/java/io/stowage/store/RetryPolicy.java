package io.stowage.store;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Retries an operation that failed with {@link TransientStoreException} (5xx, 429/503 throttling such as
 * {@code SlowDown}, 408, connection refused or reset: see how the S3 store maps errors), with exponential
 * backoff and jitter. Every other outcome, including {@link ObjectNotFoundException} and
 * {@link PermanentStoreException} (403, a missing bucket, any other 4xx), is returned or thrown at once,
 * without a single retry.
 *
 * <p>Delays ("equal jitter"): before attempt {@code n + 1} (n ≥ 1) the ceiling is
 * {@code min(maxBackoff, initialBackoff × 2^(n-1))} and the wait is drawn uniformly from
 * {@code [ceiling / 2, ceiling]}, so that many clients failing together do not retry in step, yet no wait
 * is shorter than half its ceiling. The random source is given (seed it in tests for repeatable
 * delays); by default it is a {@link SplittableRandom} seeded from the system. Sleeps the calling thread
 * through a {@link Sleeper}: use it on a worker thread only.
 */
public final class RetryPolicy {
    /** Waits for a delay; {@link Thread#sleep} in production, a recorder in tests. */
    @FunctionalInterface
    public interface Sleeper {
        /** @throws InterruptedException when the wait was interrupted */
        void sleep(Duration delay) throws InterruptedException;
    }

    private final int attempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final RandomGenerator random;
    private final Sleeper sleeper;

    /**
     * @param attempts       total attempts, at least 1
     * @param initialBackoff ceiling of the wait before the second attempt
     * @param maxBackoff     ceiling of any wait between two attempts
     * @param random         source of the jitter (used under this policy's lock, so it need not be thread-safe)
     * @param sleeper        how to wait
     * @throws IllegalArgumentException for fewer than 1 attempt or a negative backoff
     */
    public RetryPolicy(int attempts, Duration initialBackoff, Duration maxBackoff, RandomGenerator random,
                       Sleeper sleeper) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
        if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
            throw new IllegalArgumentException("backoff must not be negative: " + initialBackoff + ", " + maxBackoff);
        }
        this.attempts = attempts;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.random = Objects.requireNonNull(random, "random");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** As the full constructor with a system-seeded random source and {@link Thread#sleep}. */
    public RetryPolicy(int attempts, Duration initialBackoff, Duration maxBackoff) {
        this(attempts, initialBackoff, maxBackoff, new SplittableRandom(), delay -> Thread.sleep(delay.toMillis()));
    }

    /** One attempt, no retry. */
    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO);
    }

    /** @return total attempts, at least 1 */
    public int attempts() {
        return attempts;
    }

    /** @return ceiling of the wait before the second attempt */
    public Duration initialBackoff() {
        return initialBackoff;
    }

    /** @return ceiling of any wait */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /**
     * @param failedAttempt the attempt that just failed, from 1
     * @return {@code min(maxBackoff, initialBackoff × 2^(failedAttempt-1))}: the upper bound of the wait that follows
     */
    public Duration ceiling(int failedAttempt) {
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("attempts count from 1: " + failedAttempt);
        }
        Duration ceiling = initialBackoff;
        for (int i = 1; i < failedAttempt && ceiling.compareTo(maxBackoff) < 0; i++) {
            ceiling = ceiling.multipliedBy(2);
        }
        return ceiling.compareTo(maxBackoff) > 0 ? maxBackoff : ceiling;
    }

    /**
     * @param failedAttempt the attempt that just failed, from 1
     * @return the wait before the next attempt, drawn uniformly (in nanoseconds) from
     *         {@code [ceiling / 2, ceiling]} of {@link #ceiling(int)}
     */
    public Duration delay(int failedAttempt) {
        long ceilingNanos = ceiling(failedAttempt).toNanos();
        long half = ceilingNanos / 2;
        long spread = ceilingNanos - half;
        long drawn;
        synchronized (this) {
            drawn = spread == 0 ? 0 : random.nextLong(spread + 1);
        }
        return Duration.ofNanos(half + drawn);
    }

    /**
     * @return the operation's result
     * @throws TransientStoreException the last one, when every attempt failed transiently, or when interrupted
     *                                 while waiting
     */
    public <T> T call(Supplier<T> operation) {
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (TransientStoreException e) {
                if (attempt >= attempts) {
                    throw e;
                }
                pause(delay(attempt));
            }
        }
    }

    private void pause(Duration delay) {
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientStoreException("interrupted while waiting to retry", e);
        }
    }

    @Override
    public String toString() {
        return "RetryPolicy[attempts=" + attempts + ", initialBackoff=" + initialBackoff + ", maxBackoff="
                + maxBackoff + ", jitter=equal]";
    }
}
