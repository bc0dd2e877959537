package io.stowage.ledger.messaging;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StoreRetry#run} on a real Vert.x event loop: every attempt gets a context of its own, so what a failed attempt
 * left in its context's locals (Panache keeps its session there) is never seen by the next one; an attempt that never
 * answers is failed after {@code attempt-timeout} and retried.
 */
class StoreRetryTest {
    private static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aFailedAttemptsContextLocalsAreNotSeenByTheNextAttempt() throws Exception {
        StoreRetry retry = new StoreRetry(config(Duration.ofSeconds(30)), null);
        List<Object> seen = new CopyOnWriteArrayList<>();
        List<Context> contexts = new CopyOnWriteArrayList<>();
        AtomicInteger attempts = new AtomicInteger();
        String result = onDuplicatedContext(() -> retry.run(() -> {
            Context here = Vertx.currentContext();
            contexts.add(here);
            seen.add(String.valueOf((Object) here.getLocal("session")));
            if (attempts.incrementAndGet() < 3) {
                here.putLocal("session", "stale from attempt " + attempts.get());
                return Uni.createFrom().failure(new IllegalStateException("connection reset"));
            }
            return Uni.createFrom().item("stored");
        }, 5));
        assertThat(result).isEqualTo("stored");
        assertThat(seen).as("each attempt starts with empty locals").containsExactly("null", "null", "null");
        assertThat(contexts).doesNotHaveDuplicates().allSatisfy(c -> {
            assertThat(VertxContext.isDuplicatedContext(c)).isTrue();
            assertThat(VertxContextSafetyToggle.isExplicitlyMarkedAsSafe(c)).as("safe for Hibernate Reactive").isTrue();
        });
    }

    @Test
    void anAttemptThatNeverAnswersIsFailedAndRetried() throws Exception {
        StoreRetry retry = new StoreRetry(config(Duration.ofMillis(300)), null);
        AtomicInteger attempts = new AtomicInteger();
        long started = System.nanoTime();
        String result = onDuplicatedContext(() -> retry.run(() -> attempts.incrementAndGet() == 1
                ? Uni.createFrom().nothing() : Uni.createFrom().item("stored"), 3));
        assertThat(result).isEqualTo("stored");
        assertThat(attempts).hasValue(2);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void attemptsThatNeverAnswerExhaustTheRetriesWithATimeout() {
        StoreRetry retry = new StoreRetry(config(Duration.ofMillis(100)), null);
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Context root = vertx.getOrCreateContext();
        Context start = StoreRetry.isolated(root);
        start.runOnContext(ignored -> retry.<String>run(() -> {
            attempts.incrementAndGet();
            return Uni.createFrom().nothing();
        }, 2).subscribe().with(outcome::complete, outcome::completeExceptionally));
        assertThat(outcome).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                .havingRootCause().isInstanceOf(TimeoutException.class);
        assertThat(attempts).hasValue(3);
    }

    private static <T> T onDuplicatedContext(Supplier<Uni<T>> work) throws Exception {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        Context start = StoreRetry.isolated(vertx.getOrCreateContext());
        start.runOnContext(ignored -> work.get().subscribe().with(outcome::complete, outcome::completeExceptionally));
        return outcome.get(20, TimeUnit.SECONDS);
    }

    private static LedgerConfig config(Duration attemptTimeout) {
        LedgerConfig.StoreRetry retry = new LedgerConfig.StoreRetry() {
            @Override
            public int maxRetries() {
                return 5;
            }

            @Override
            public Duration initialBackoff() {
                return Duration.ofMillis(10);
            }

            @Override
            public Duration maxBackoff() {
                return Duration.ofMillis(50);
            }

            @Override
            public Duration attemptTimeout() {
                return attemptTimeout;
            }
        };
        return () -> retry;
    }
}
