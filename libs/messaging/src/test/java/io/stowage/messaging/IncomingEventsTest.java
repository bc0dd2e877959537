package io.stowage.messaging;

import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.Topics;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class IncomingEventsTest {
    private static final ReleaseRequested REQUEST = ReleaseRequested.of(
            new EventMeta("e-1", 1, Instant.parse("2026-11-30T06:00:00Z"), "req-1", null),
            "req-1", "/hot/speech", false, "operator");
    private static final Redelivery THREE_QUICK = new Redelivery(3, Duration.ofMillis(1), Duration.ofMillis(4));

    private final AtomicReference<String> settled = new AtomicReference<>();
    private final IncomingEvents incoming = new IncomingEvents(EventPublisher.of("/stowage/test", Map.of()),
            THREE_QUICK);

    @Test
    void aDoneOutcomeAcksTheRecordOnce() {
        handle(EventCodec.encode(REQUEST), e -> Outcome.done(List.of()));

        assertThat(settled.get()).isEqualTo("ack");
    }

    @Test
    void anUndecodableRecordIsNackedWithTheDecodersReasonAndNeverReachesTheDomain() {
        AtomicInteger calls = new AtomicInteger();

        handle("{not json".getBytes(StandardCharsets.UTF_8), e -> {
            calls.incrementAndGet();
            return Outcome.done(List.of());
        });

        assertThat(settled.get()).startsWith("nack InvalidEventException");
        assertThat(calls).hasValue(0);
    }

    @Test
    void aPermanentFailureIsDeadLetteredAtOnceWithItsReason() {
        AtomicInteger calls = new AtomicInteger();

        handle(EventCodec.encode(REQUEST), e -> {
            calls.incrementAndGet();
            return Outcome.permanent(List.of(), "permanent upload failure (1 of 1 objects): 403");
        });

        assertThat(settled.get()).isEqualTo("nack DeadLetterReason permanent upload failure (1 of 1 objects): 403");
        assertThat(calls).hasValue(1);
    }

    @Test
    void aTransientFailureIsRetriedAndAckedWhenALaterAttemptSucceeds() {
        AtomicInteger calls = new AtomicInteger();

        handle(EventCodec.encode(REQUEST), e -> calls.incrementAndGet() < 3
                ? Outcome.transientFailure(List.of(), "503 SlowDown") : Outcome.done(List.of()));

        assertThat(settled.get()).isEqualTo("ack");
        assertThat(calls).hasValue(3);
    }

    @Test
    void anExceptionIsTransientAndAfterTheLastAttemptTheRecordIsDeadLetteredNotAcked() {
        AtomicInteger calls = new AtomicInteger();

        handle(EventCodec.encode(REQUEST), e -> {
            calls.incrementAndGet();
            throw new IllegalStateException("ledger unreachable");
        });

        assertThat(settled.get()).isEqualTo(
                "nack DeadLetterReason transient failure after 3 attempts: ledger unreachable");
        assertThat(calls).hasValue(3);
    }

    @Test
    void anInvalidEventFoundByTheDomainIsPermanent() {
        AtomicInteger calls = new AtomicInteger();

        handle(EventCodec.encode(REQUEST), e -> {
            calls.incrementAndGet();
            throw new InvalidEventException("bad signature");
        });

        assertThat(settled.get()).isEqualTo("nack DeadLetterReason bad signature");
        assertThat(calls).hasValue(1);
    }

    @Test
    void anEventOfATopicThePublisherDoesNotWriteFailsThePublishAndIsNotAcked() {
        handle(EventCodec.encode(REQUEST), e -> Outcome.done(List.of(REQUEST)));

        assertThat(settled.get()).startsWith("nack DeadLetterReason transient failure after 3 attempts: publish failed:");
    }

    @Test
    void backoffDoublesUpToTheMaximum() {
        Redelivery redelivery = new Redelivery(6, Duration.ofSeconds(1), Duration.ofSeconds(5));

        assertThat(List.of(1, 2, 3, 4, 5)).extracting(redelivery::backoffAfter).containsExactly(
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5),
                Duration.ofSeconds(5));
    }

    private void handle(byte[] value, Function<ReleaseRequested, Outcome> domain) {
        Message<byte[]> record = Message.of(value, () -> {
            assertThat(settled.getAndSet("ack")).isNull();
            return CompletableFuture.completedFuture(null);
        }, failure -> {
            assertThat(settled.getAndSet("nack " + failure.getClass().getSimpleName() + " " + failure.getMessage()))
                    .isNull();
            return CompletableFuture.completedFuture(null);
        });
        incoming.handle(record, Topics.VOLUME_RELEASE_REQUESTED,
                bytes -> EventCodec.decode(ReleaseRequested.class, bytes), domain).toCompletableFuture().join();
    }
}
