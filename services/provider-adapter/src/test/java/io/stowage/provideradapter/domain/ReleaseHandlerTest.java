package io.stowage.provideradapter.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.InventoryEntry;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.GateSignature;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReleaseHandlerTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T06:00:00Z"), ZoneOffset.UTC);
    static final String FINGERPRINT = "f".repeat(64);
    static final String KEY = "unit-test-gate-signing-key-0123456789";
    static final GateSignature SIGNER = new GateSignature(KEY);

    /** Records calls and answers with a fixed result. */
    static final class RecordingProvider implements ReleaseProvider {
        final List<Path> calls = new ArrayList<>();
        ReleaseResult answer;

        RecordingProvider(ReleaseResult answer) {
            this.answer = answer;
        }

        @Override
        public String name() {
            return "local";
        }

        @Override
        public Optional<String> refusal(ApprovedRelease approved) {
            assertThat(approved.fingerprint()).isEqualTo(FINGERPRINT);
            assertThat(approved.inventoryDigest()).isEqualTo(INVENTORY.digest());
            assertThat(approved.inventory()).isEqualTo(INVENTORY.entries());
            return Optional.ofNullable(answer.released() ? null : answer.reason());
        }

        @Override
        public ReleaseResult finish(ApprovedRelease approved, Path aside) {
            calls.add(approved.dir());
            assertThat(aside).isEqualTo(Path.of("/vol/data/.stowage-releasing-req-1"));
            return answer;
        }
    }

    static final DirectoryInventory INVENTORY = DirectoryInventory.of(List.of(
            new InventoryEntry("a/1.wav", 3, "1".repeat(64)), new InventoryEntry("a/b/2.wav", 4, "2".repeat(64)),
            new InventoryEntry("meta.txt", 1, "3".repeat(64))));

    static List<ConditionResult> allPassed() {
        return java.util.stream.IntStream.rangeClosed(1, 5).mapToObj(c -> new ConditionResult(c,
                ConditionResult.NAMES.get(c - 1), true, "held", List.of("ev-" + c))).toList();
    }

    static GatePassed passed(boolean dryRun) {
        return GatePassed.of(EventMeta.first("req-1", CLOCK), "req-1", "/vol/data/speech", dryRun,
                List.of("dataset/speech/r1"), FINGERPRINT, allPassed(), INVENTORY);
    }

    final MemoryReleaseJournal journal = new MemoryReleaseJournal();

    ReleaseHandler handler(ReleaseProvider provider) {
        return new ReleaseHandler(provider, DecisionAuthenticator.of(Optional.of(KEY)), journal, CLOCK);
    }

    static Optional<StowageEvent> signedAndHandled(ReleaseHandler handler, GatePassed gate) {
        byte[] value = EventCodec.encode(gate);
        return handler.handle(value, SIGNER.sign(value));
    }

    @Test
    void aDryRunIsNeverExecuted() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));

        assertThat(signedAndHandled(handler(provider), passed(true))).isEmpty();
        assertThat(provider.calls).isEmpty();
    }

    @Test
    void aReleaseBecomesVolumeReleasedCausedByTheGate() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        GatePassed gate = passed(false);

        Optional<StowageEvent> event = signedAndHandled(handler(provider), gate);

        assertThat(provider.calls).containsExactly(Path.of("/vol/data/speech"));
        assertThat(journal.saves).extracting(ReleaseEntry::state).containsExactly(ReleaseEntry.State.APPROVED,
                ReleaseEntry.State.DELETING, ReleaseEntry.State.DONE);
        assertThat(journal.entries.get("req-1").outcome()).isEqualTo(event.orElseThrow());
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleased.class, released -> {
            assertThat(released.requestId()).isEqualTo("req-1");
            assertThat(released.provider()).isEqualTo("local");
            assertThat(released.fileCount()).isEqualTo(3);
            assertThat(released.totalBytes()).isEqualTo(8);
            assertThat(released.meta().causationId()).isEqualTo(gate.meta().eventId());
            assertThat(released.meta().correlationId()).isEqualTo("req-1");
        });
    }

    @Test
    void theMeterIsToldOfTheReleaseOnceAndNotOfItsOutcomeAnsweredAgainNorOfADryRun() {
        List<StowageEvent> told = new ArrayList<>();
        ReleaseHandler metered = new ReleaseHandler(new RecordingProvider(ReleaseResult.released(3, 8)),
                DecisionAuthenticator.of(Optional.of(KEY)), journal, CLOCK, (outcome, nanos) -> told.add(outcome));

        signedAndHandled(metered, passed(true));
        StowageEvent first = signedAndHandled(metered, passed(false)).orElseThrow();
        signedAndHandled(metered, passed(false));
        byte[] value = EventCodec.encode(passed(false));
        metered.handle(value, null);

        assertThat(told).hasSize(2);
        assertThat(told.get(0)).isEqualTo(first).isInstanceOf(VolumeReleased.class);
        assertThat(told.get(1)).isInstanceOfSatisfying(VolumeReleaseFailed.class, failed ->
                assertThat(failed.reason()).startsWith("gate decision not authenticated"));
    }

    @Test
    void aRefusalBecomesVolumeReleaseFailedWithTheReasonAndNothingIsRenamed() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.refused("changed\nsince the gate"));

        Optional<StowageEvent> event = signedAndHandled(handler(provider), passed(false));

        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed ->
                assertThat(failed.reason()).isEqualTo("changed since the gate"));
        assertThat(provider.calls).as("finish (the rename) never called").isEmpty();
        assertThat(journal.saves).extracting(ReleaseEntry::state).containsExactly(ReleaseEntry.State.APPROVED,
                ReleaseEntry.State.DONE);
    }

    @Test
    void anUnsignedDecisionReachesNoProvider() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));

        Optional<StowageEvent> event = handler(provider).handle(EventCodec.encode(passed(false)), null);

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed -> assertThat(failed.reason())
                .isEqualTo("gate decision not authenticated: no stowage-signature header; nothing deleted"));
    }

    @Test
    void aDecisionAlteredAfterSigningReachesNoProvider() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        byte[] value = EventCodec.encode(passed(false));
        String signature = SIGNER.sign(value);
        byte[] altered = new String(value, StandardCharsets.UTF_8).replace("/vol/data/speech", "/vol/data/other")
                .getBytes(StandardCharsets.UTF_8);

        Optional<StowageEvent> event = handler(provider).handle(altered, signature);

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed -> {
            assertThat(failed.path()).isEqualTo("/vol/data/other");
            assertThat(failed.reason()).contains("not authenticated", "does not match the record", "nothing deleted");
        });
    }

    @Test
    void aDecisionSignedWithAnotherKeyReachesNoProvider() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        byte[] value = EventCodec.encode(passed(false));

        Optional<StowageEvent> event = handler(provider).handle(value,
                new GateSignature("another-key-of-at-least-32-bytes-xx").sign(value));

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOf(VolumeReleaseFailed.class);
    }

    @Test
    void withoutAKeyEveryDecisionIsRefusedWithoutEchoingAnything() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        byte[] value = EventCodec.encode(passed(false));
        ReleaseHandler keyless = new ReleaseHandler(provider, DecisionAuthenticator.of(Optional.of("s3cr3t-but-tiny")),
                journal, CLOCK);

        Optional<StowageEvent> event = keyless.handle(value, SIGNER.sign(value));

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed -> assertThat(failed.reason())
                .contains("not authenticated", "stowage.gate.signing-key is not set to a valid key")
                .doesNotContain("s3cr3t-but-tiny"));
    }

    @Test
    void aRedeliveredDecisionIsExecutedOnceAndAnswersTheSameOutcome() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        ReleaseHandler handler = handler(provider);
        GatePassed gate = passed(false);
        // the gatekeeper deciding the same request again: another decision event, the same request
        GatePassed again = GatePassed.of(EventMeta.first("req-1", CLOCK), "req-1", "/vol/data/speech", false,
                List.of("dataset/speech/r1"), FINGERPRINT, allPassed(), INVENTORY);

        StowageEvent first = signedAndHandled(handler, gate).orElseThrow();
        StowageEvent redelivered = signedAndHandled(handler, gate).orElseThrow();
        StowageEvent redecided = signedAndHandled(handler, again).orElseThrow();

        assertThat(provider.calls).hasSize(1);
        assertThat(redelivered).isEqualTo(first);
        assertThat(redecided).isEqualTo(first);
        assertThat(first.meta().causationId()).isEqualTo(gate.meta().eventId());
        assertThat(journal.saves).hasSize(3);
    }

    @Test
    void anOutcomeIsUnsentUntilMarkedAndRecoveryAnswersItWithTheSameId() throws IOException {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        ReleaseHandler handler = handler(provider);
        StowageEvent outcome = signedAndHandled(handler, passed(false)).orElseThrow();

        assertThat(handler.recover()).containsExactly(outcome);
        assertThat(handler.markSent(outcome)).isTrue();
        assertThat(handler.recover()).isEmpty();
        assertThat(handler.markSent(outcome)).as("marked once").isFalse();
        assertThat(provider.calls).hasSize(1);
    }

    @Test
    void aDecisionThatCannotBeJournaledIsNotExecuted() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        journal.broken = true;
        GatePassed gate = passed(false);

        Optional<StowageEvent> event = signedAndHandled(handler(provider), gate);

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed -> assertThat(failed.reason())
                .isEqualTo("cannot record request req-1 in the release journal (disk full); nothing deleted"));
        assertThat(journal.entries).isEmpty();
    }

    @Test
    void anAuthenticDecisionWithoutAnInventoryReachesNoProvider() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        GatePassed old = GatePassed.of(EventMeta.first("req-1", CLOCK), "req-1", "/vol/data/speech", false,
                List.of("dataset/speech/r1"), 3, 8, FINGERPRINT);

        Optional<StowageEvent> event = signedAndHandled(handler(provider), old);

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed -> assertThat(failed.reason())
                .contains("carries no inventory", "nothing deleted"));
    }

    @Test
    void anAuthenticDecisionWhoseInventoryDoesNotMatchItsDigestReachesNoProvider() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        GatePassed good = passed(false);
        GatePassed inconsistent = new GatePassed(good.meta(), good.requestId(), good.path(), false, good.assets(),
                good.fileCount(), good.totalBytes(), good.fingerprint(), good.conditions(), good.inventoryDigest(),
                good.inventory().subList(0, 2), 0);

        Optional<StowageEvent> event = signedAndHandled(handler(provider), inconsistent);

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOf(VolumeReleaseFailed.class);
    }

    @Test
    void anUnauthenticatedDecisionIsNotJournaled() {
        handler(new RecordingProvider(ReleaseResult.released(3, 8))).handle(EventCodec.encode(passed(false)), "00");

        assertThat(journal.entries).as("a forged decision never blocks the authentic one of its request").isEmpty();
    }

    @Test
    void aDecisionByReferenceIsExecutedWithTheEntriesOfItsPartsAndJournaledWithThem() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        GatePassed byReference = passed(false).byReference(2);
        List<GatePassed> asked = new java.util.ArrayList<>();
        InventoryParts parts = decision -> {
            asked.add(decision);
            return Optional.of(INVENTORY.entries());
        };
        ReleaseHandler handler = new ReleaseHandler(provider, DecisionAuthenticator.of(Optional.of(KEY)), journal, CLOCK,
                parts, ReleaseMeter.NONE);

        Optional<StowageEvent> event = signedAndHandled(handler, byReference);

        assertThat(asked).containsExactly(byReference);
        assertThat(provider.calls).containsExactly(Path.of("/vol/data/speech"));
        assertThat(event).get().isInstanceOf(VolumeReleased.class);
        assertThat(journal.entries.get("req-1").decision().inventory()).as("the journal needs no part to recover")
                .isEqualTo(INVENTORY.entries());
        assertThat(journal.entries.get("req-1").decision().inventoryParts()).isZero();
    }

    @Test
    void aDecisionByReferenceWhosePartsAreMissingShortOrAlteredDeletesNothing() {
        List<InventoryEntry> altered = new java.util.ArrayList<>(INVENTORY.entries());
        altered.set(1, new InventoryEntry("a/b/2.wav", 4, "9".repeat(64)));
        List<InventoryEntry> wider = new java.util.ArrayList<>(INVENTORY.entries());
        wider.add(new InventoryEntry("more/notes.txt", 5, "4".repeat(64)));
        for (Optional<List<InventoryEntry>> read : List.of(Optional.<List<InventoryEntry>>empty(),
                Optional.of(INVENTORY.entries().subList(0, 2)), Optional.of(altered), Optional.of(wider))) {
            MemoryReleaseJournal fresh = new MemoryReleaseJournal();
            RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
            ReleaseHandler handler = new ReleaseHandler(provider, DecisionAuthenticator.of(Optional.of(KEY)), fresh,
                    CLOCK, decision -> read, ReleaseMeter.NONE);

            Optional<StowageEvent> event = signedAndHandled(handler, passed(false).byReference(1));

            assertThat(provider.calls).as(String.valueOf(read)).isEmpty();
            assertThat(fresh.entries).isEmpty();
            assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed ->
                    assertThat(failed.reason()).contains("gate.inventory part(s)", "nothing deleted"));
        }
    }

    @Test
    void aDecisionByReferenceIsRefusedByAHandlerThatCannotReadParts() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));

        Optional<StowageEvent> event = signedAndHandled(handler(provider), passed(false).byReference(1));

        assertThat(provider.calls).isEmpty();
        assertThat(event).get().isInstanceOf(VolumeReleaseFailed.class);
    }
}
