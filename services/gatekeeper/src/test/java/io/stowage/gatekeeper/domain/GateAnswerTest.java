package io.stowage.gatekeeper.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** One decision id per request, and requests too old to evaluate. */
class GateAnswerTest {
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    static ReleaseRequested request(Instant sent) {
        return ReleaseRequested.of(new EventMeta("req-event-1", 1, sent, "req-1", null), "req-1", "/vol/data/speech",
                false, "test");
    }

    @Test
    void theDecisionIdIsTheNameBasedUuidOfTheRequestEventId() {
        ReleaseRequested request = request(NOW);

        assertThat(GateAnswer.decisionId(request)).isEqualTo(
                UUID.nameUUIDFromBytes("gate-decision:req-event-1".getBytes(StandardCharsets.UTF_8)).toString());
        assertThat(GateAnswer.decisionId(request(NOW.minusSeconds(5)))).as("a redelivery").isEqualTo(
                GateAnswer.decisionId(request));
        ReleaseRequested other = ReleaseRequested.of(new EventMeta("req-event-2", 1, NOW, "req-1", null), "req-1",
                "/vol/data/speech", false, "test");
        assertThat(GateAnswer.decisionId(other)).isNotEqualTo(GateAnswer.decisionId(request));
    }

    @Test
    void everyDecisionOnARequestCarriesItsDecisionId() {
        ReleaseRequested request = request(NOW);
        GateDecision denied = GateDecision.denied(List.of(), List.of(new FailedCondition(5, "no-assets", "none")),
                List.of());
        StowageEvent first = GateAnswer.of(request, denied, CLOCK);
        StowageEvent again = GateAnswer.of(request, denied, Clock.offset(CLOCK, Duration.ofMinutes(3)));
        GateDenied failure = GateAnswer.denied(request, new FailedCondition(0, "ledger-behind", "x"), CLOCK);

        assertThat(first.meta().eventId()).isEqualTo(GateAnswer.decisionId(request)).isEqualTo(again.meta().eventId())
                .isEqualTo(failure.meta().eventId());
        assertThat(first.meta().causationId()).isEqualTo("req-event-1");
    }

    @Test
    void aRequestOlderThanTheMaximumAgeIsStaleAndDeniedUnevaluated() {
        Duration hour = Duration.ofHours(1);

        assertThat(GateAnswer.stale(request(NOW.minus(hour).minusSeconds(1)), hour, CLOCK)).isTrue();
        assertThat(GateAnswer.stale(request(NOW.minus(hour)), hour, CLOCK)).isFalse();
        assertThat(GateAnswer.stale(request(NOW.minusSeconds(5)), hour, CLOCK)).isFalse();
        GateDenied denied = GateAnswer.staleDenied(request(NOW.minus(Duration.ofHours(2))), hour, CLOCK);
        assertThat(denied.failed()).extracting(f -> f.condition() + ":" + f.code()).containsExactly("0:stale-request");
        assertThat(denied.failed().get(0).detail()).contains("req-event-1", "3600 s");
        assertThat(denied.conditions()).hasSize(5).allSatisfy(c -> assertThat(c.passed()).isFalse());
        assertThat(denied.meta().eventId()).isEqualTo(GateAnswer.decisionId(request(NOW)));
    }
}
