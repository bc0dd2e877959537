package io.stowage.store;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2));

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
    }

    @Test
    void storeConfigNeverShowsTheSecret() {
        StoreConfig config = new StoreConfig("primary", java.net.URI.create("http://127.0.0.1:9000"), "us-east-1",
                "stowage-primary", "AKID", "s3cr3t-value");
        assertThat(config.toString()).contains("AKID", "stowage-primary").doesNotContain("s3cr3t-value");
    }
}
