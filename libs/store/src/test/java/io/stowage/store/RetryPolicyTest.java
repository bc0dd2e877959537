package io.stowage.store;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {
    private final List<Duration> slept = new ArrayList<>();
    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2),
            new SplittableRandom(7), slept::add);

    @Test
    void everyDelayLiesWithinItsJitteredBoundsAndTheCeilingDoublesUpToTheMaximum() {
        List<Duration> delays = new ArrayList<>();
        RetryPolicy eight = new RetryPolicy(8, Duration.ofMillis(100), Duration.ofSeconds(1), new SplittableRandom(42),
                delays::add);
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> eight.call(() -> {
            calls.incrementAndGet();
            throw new TransientStoreException("HTTP 503 SlowDown", null);
        })).isInstanceOf(TransientStoreException.class).hasMessage("HTTP 503 SlowDown");

        assertThat(calls).hasValue(8);
        long[] ceilingsMs = {100, 200, 400, 800, 1000, 1000, 1000};
        assertThat(delays).hasSize(7);
        for (int i = 0; i < delays.size(); i++) {
            assertThat(eight.ceiling(i + 1)).isEqualTo(Duration.ofMillis(ceilingsMs[i]));
            assertThat(delays.get(i)).as("delay after attempt %d", i + 1)
                    .isBetween(Duration.ofMillis(ceilingsMs[i] / 2), Duration.ofMillis(ceilingsMs[i]));
        }
        // jitter: the three delays under the same 1 s ceiling are not all the same
        assertThat(delays.subList(4, 7)).doesNotHaveDuplicates();
    }

    @Test
    void theSameSeedGivesTheSameDelaysAndManyDrawsCoverTheWholeRange() {
        RetryPolicy a = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1), new SplittableRandom(3), d -> { });
        RetryPolicy b = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1), new SplittableRandom(3), d -> { });
        for (int attempt = 1; attempt <= 4; attempt++) {
            assertThat(a.delay(attempt)).isEqualTo(b.delay(attempt));
        }
        Duration min = Duration.ofDays(1);
        Duration max = Duration.ZERO;
        for (int i = 0; i < 10_000; i++) {
            Duration d = a.delay(5);
            assertThat(d).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
            min = d.compareTo(min) < 0 ? d : min;
            max = d.compareTo(max) > 0 ? d : max;
        }
        assertThat(min).isLessThan(Duration.ofMillis(510));
        assertThat(max).isGreaterThan(Duration.ofMillis(990));
    }

    @Test
    void retriesTransientFailuresUntilSuccess() {
        AtomicInteger calls = new AtomicInteger();
        String result = policy.call(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new TransientStoreException("connection refused", null);
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(calls).hasValue(3);
        assertThat(slept).hasSize(2);
    }

    @Test
    void givesUpAfterTheLastAttemptWithTheTransientFailure() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> policy.call(() -> {
            calls.incrementAndGet();
            throw new TransientStoreException("HTTP 503", null);
        })).isInstanceOf(TransientStoreException.class).hasMessage("HTTP 503");
        assertThat(calls).hasValue(3);
    }

    @Test
    void neverRetriesNotFoundOrPermanentFailures() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> policy.call(() -> {
            calls.incrementAndGet();
            throw new ObjectNotFoundException("b", "k");
        })).isInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(() -> policy.call(() -> {
            calls.incrementAndGet();
            throw new PermanentStoreException("HTTP 403 AccessDenied", null);
        })).isInstanceOf(PermanentStoreException.class);
        assertThat(calls).hasValue(2);
        assertThat(slept).isEmpty();
    }

    @Test
    void storeConfigNeverShowsTheSecretNorTheAccessKey() {
        StoreConfig config = new StoreConfig("primary", java.net.URI.create("http://127.0.0.1:9000"), "us-east-1",
                "stowage-primary", "AKID", "s3cr3t-value");
        assertThat(config.toString()).contains("accessKeyId=****", "stowage-primary").doesNotContain("AKID", "s3cr3t-value");
    }
}
