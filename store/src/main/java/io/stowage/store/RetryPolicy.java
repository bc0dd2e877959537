package io.stowage.store;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Retries an operation that failed with {@link TransientStoreException}, with exponential backoff
 * (doubling from {@code initialBackoff}, capped at {@code maxBackoff}). Every other outcome,
 * including {@link ObjectNotFoundException} and {@link PermanentStoreException}, is returned or
 * thrown at once. Sleeps the calling thread: use it on a worker thread only.
 *
 * @param attempts       total attempts, at least 1
 * @param initialBackoff wait before the second attempt
 * @param maxBackoff     longest wait between two attempts
 */
public record RetryPolicy(int attempts, Duration initialBackoff, Duration maxBackoff) {

    public RetryPolicy {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
    }

    /** One attempt, no retry. */
    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO);
    }

    /**
     * @return the operation's result
     * @throws TransientStoreException the last one, when every attempt failed transiently
     */
    public <T> T call(Supplier<T> operation) {
        Duration backoff = initialBackoff;
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (TransientStoreException e) {
                if (attempt >= attempts) {
                    throw e;
                }
                pause(backoff);
                backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
            }
        }
    }

    private static void pause(Duration backoff) {
        try {
            Thread.sleep(backoff.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientStoreException("interrupted while waiting to retry", e);
        }
    }
}
