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

    @Test
    void aPassingDecisionWithALargeInventoryIsSentAsItsPartsFirstThenTheDecisionByReference() {
        List<io.stowage.events.InventoryEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 25_000; i++) {
            entries.add(new io.stowage.events.InventoryEntry(String.format("wav/speaker-%04d/utt-%06d.wav", i % 500, i),
                    32_000, String.format("%064x", i)));
        }
        io.stowage.events.DirectoryInventory inventory = io.stowage.events.DirectoryInventory.of(entries);
        List<io.stowage.events.ConditionResult> conditions = java.util.stream.IntStream.rangeClosed(1, 5)
                .mapToObj(c -> new io.stowage.events.ConditionResult(c, io.stowage.events.ConditionResult.NAMES.get(c - 1),
                        true, "held", List.of("ev-" + c))).toList();
        StowageEvent decision = GateAnswer.of(request(NOW), GateDecision.passed(List.of("dataset/speech/r1"), inventory,
                "f".repeat(64), conditions), CLOCK);

        List<StowageEvent> records = GateAnswer.records(decision);

        assertThat(records.size()).isGreaterThan(2);
        StowageEvent last = records.get(records.size() - 1);
        assertThat(last).isInstanceOfSatisfying(io.stowage.events.GatePassed.class, passed -> {
            assertThat(passed.meta().eventId()).isEqualTo(decision.meta().eventId());
            assertThat(passed.inventory()).isEmpty();
            assertThat(passed.inventoryParts()).isEqualTo(records.size() - 1);
            assertThat(passed.fileCount()).isEqualTo(25_000);
            assertThat(passed.inventoryDigest()).isEqualTo(inventory.digest());
        });
        for (StowageEvent record : records) {
            assertThat(io.stowage.events.EventCodec.encode(record).length).as(record.topic())
                    .isLessThan(300 * 1024);
            assertThat(record.assetId()).isEqualTo(decision.assetId());
        }
        assertThat(records.subList(0, records.size() - 1)).allSatisfy(r -> assertThat(r.topic()).isEqualTo("gate.inventory"));
        assertThat(io.stowage.events.EventCodec.encode(decision).length).as("what Kafka refused before")
                .isGreaterThan(1024 * 1024);
    }

    @Test
    void aSmallDecisionAndADenialAreSentAlone() {
        GateDecision denied = GateDecision.denied(List.of(), List.of(new FailedCondition(5, "no-assets", "none")),
                List.of());
        StowageEvent denial = GateAnswer.of(request(NOW), denied, CLOCK);

        assertThat(GateAnswer.records(denial)).containsExactly(denial);
    }
}
