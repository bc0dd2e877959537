package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.domain.RetentionPolicies;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GateSignature;
import io.stowage.events.RetentionDecided;
import io.stowage.events.RetentionRefused;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.persistence.FileRetentionJournal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retention executor against an in-memory ledger and stores: what it deletes when the decision is sound, and
 * every refusal that keeps data — a forged decision, a key outside the step, a step the re-evaluation keeps (latest,
 * newest verified, pinned, best), objects the ledger does not hold, a deletion a HEAD cannot confirm — and apply twice.
 */
class RetentionExecutorTest {
    private static final String KEY = "test-only-retention-signing-key-0123456789";
    private static final String SHA = "b".repeat(64);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
    private static final RetentionPolicy KEEP_LAST_AND_BEST =
            new RetentionPolicy(1, 1, "val_loss", RetentionPolicy.Mode.MIN, null, null, null);

    /** Four verified steps with val_loss 0.9, 0.2, 0.5, 0.7; latest.json names 400; step 100 is a key checkpoint? no. */
    private final FakeRetentionSources sources = new FakeRetentionSources();
    private final GateSignature signature = new GateSignature(KEY);
    @TempDir
    Path state;
    private RetentionExecutor executor;
    private final RetentionDecider decider = new RetentionDecider(sources, signature, CLOCK);

    RetentionExecutorTest() {
        sources.add(100, 0.9);
        sources.add(200, 0.2);
        sources.add(300, 0.5);
        sources.add(400, 0.7);
        sources.latest = 400L;
    }

    @BeforeEach
    void openJournal() throws IOException {
        executor = new RetentionExecutor(sources, DecisionAuthenticator.of(Optional.of(KEY)),
                FileRetentionJournal.open(state), CLOCK);
    }

    @Test
    void keepBestOneAndKeepLastOneDeletesOnlyTheOthersFromBothStores() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), signed.signature());

        assertThat(signed.decided().expire()).extracting(RetentionDecided.ExpiringStep::step).containsExactly(100L, 300L);
        assertThat(outcome.refused()).isEmpty();
        assertThat(outcome.expired()).extracting(CheckpointExpired::step).containsExactly(100L, 300L);
        assertThat(outcome.expired().get(0).objects()).extracting(ExpiredObject::store).containsExactly("primary", "replica");
        assertThat(outcome.expired().get(0).totalBytes()).isEqualTo(200);
        assertThat(sources.stored).containsExactlyInAnyOrder(
                "primary " + key(200), "replica " + key(200), "primary " + key(400), "replica " + key(400));
        assertThat(outcome.expired().get(0).meta().causationId()).isEqualTo(signed.decided().meta().eventId());
    }

    @Test
    void theMeterIsToldOfEachDecisionDecidedNowAndNotOfItsOutcomeAnsweredAgain() throws Exception {
        List<RetentionExecutor.Outcome> told = new java.util.ArrayList<>();
        RetentionExecutor metered = new RetentionExecutor(sources, DecisionAuthenticator.of(Optional.of(KEY)),
                FileRetentionJournal.open(state.resolve("metered")), CLOCK, told::add);
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");

        metered.execute(signed.value(), signed.signature());
        metered.execute(signed.value(), signed.signature());
        metered.execute(signed.value(), null);

        assertThat(told).hasSize(2);
        assertThat(told.get(0).expired()).extracting(CheckpointExpired::step).containsExactly(100L, 300L);
        assertThat(told.get(1).expired()).isEmpty();
        assertThat(told.get(1).refused().orElseThrow().refusals()).singleElement()
                .satisfies(r -> assertThat(r.reason()).contains("no stowage-signature header"));
    }

    @Test
    void aForgedDecisionDeletesNothing() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), "0".repeat(64));
        RetentionExecutor.Outcome unsigned = executor.execute(signed.value(), null);

        assertThat(outcome.expired()).isEmpty();
        assertThat(outcome.refused().orElseThrow().refusals().get(0).reason()).contains("not authenticated");
        assertThat(unsigned.refused().orElseThrow().refusals().get(0).reason()).contains("no stowage-signature header");
        assertThat(sources.stored).hasSize(8);
    }

    @Test
    void aSignedDecisionNamingAKeyOutsideCheckpointsIsRefused() {
        byte[] value = decision(List.of(new RetentionDecided.ExpiringStep(100, List.of(
                new ExpiredObject("primary", "stowage-primary", "datasets/speech/r1/manifest.json", 10)))));

        RetentionExecutor.Outcome outcome = executor.execute(value, signature.sign(value));

        assertThat(outcome.expired()).isEmpty();
        assertThat(reasons(outcome)).singleElement().asString()
                .contains("datasets/speech/r1/manifest.json is outside checkpoints/e/r/000000000100/");
        assertThat(sources.stored).hasSize(8);
        assertThat(sources.deleted).isEmpty();
    }

    @Test
    void aKeyOfAnotherStepOrOfAnotherRunIsRefused() {
        byte[] otherStep = decision(List.of(new RetentionDecided.ExpiringStep(100, List.of(
                new ExpiredObject("primary", "stowage-primary", key(200), 10)))));
        byte[] traversal = decision(List.of(new RetentionDecided.ExpiringStep(100, List.of(
                new ExpiredObject("primary", "stowage-primary", "checkpoints/e/r/000000000100/../../other/x", 10)))));

        assertThat(reasons(executor.execute(otherStep, signature.sign(otherStep)))).singleElement().asString()
                .contains("outside checkpoints/e/r/000000000100/");
        assertThat(reasons(executor.execute(traversal, signature.sign(traversal)))).singleElement().asString()
                .contains("outside");
        assertThat(sources.deleted).isEmpty();
    }

    @Test
    void aSignedDecisionNamingKeptStepsIsRefusedStepByStep() {
        // 400: latest and newest verified; 200: the best by val_loss; 300: would expire, but the decision misses a key
        byte[] value = decision(List.of(step(200), step(400),
                new RetentionDecided.ExpiringStep(300, List.of(new ExpiredObject("primary", "stowage-primary", key(300), 100)))));

        RetentionExecutor.Outcome outcome = executor.execute(value, signature.sign(value));

        assertThat(outcome.expired()).isEmpty();
        List<RetentionRefused.Refusal> refusals = outcome.refused().orElseThrow().refusals();
        assertThat(refusals).extracting(RetentionRefused.Refusal::step).containsExactly(200L, 400L, 300L);
        assertThat(refusals.get(0).reason()).contains("keeps step 200 (keep-best)");
        assertThat(refusals.get(1).reason()).contains("step 400 is the step latest.json names");
        assertThat(refusals.get(2).reason()).contains("not named: replica " + key(300));
        assertThat(sources.deleted).isEmpty();
    }

    @Test
    void theNewestVerifiedStepIsRefusedEvenWhenLatestJsonNamesAnother() {
        sources.latest = 300L;
        byte[] value = decision(List.of(step(400)));

        assertThat(reasons(executor.execute(value, signature.sign(value)))).singleElement().asString()
                .contains("step 400 is the newest verified step");
        assertThat(sources.deleted).isEmpty();
    }

    @Test
    void aStepPinnedAfterTheDecisionIsRefused() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");
        sources.pin(300);

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), signed.signature());

        assertThat(outcome.expired()).extracting(CheckpointExpired::step).containsExactly(100L);
        assertThat(reasons(outcome)).singleElement().asString().contains("step 300 is pinned");
        assertThat(sources.stored).contains("primary " + key(300), "replica " + key(300));
    }

    @Test
    void aStepLeasedByAFetchAfterTheDecisionIsRefusedUntilTheLeaseRunsOut() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");
        sources.lease(300, FakeRetentionSources.CLOCK.instant().plusSeconds(600));
        sources.lease(100, FakeRetentionSources.CLOCK.instant()); // ran out at the evaluation's instant: holds nothing

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), signed.signature());

        assertThat(outcome.expired()).extracting(CheckpointExpired::step).containsExactly(100L);
        assertThat(reasons(outcome)).singleElement().asString().contains("step 300 is leased until",
                "(a fetch for a resume)");
        assertThat(sources.stored).contains("primary " + key(300), "replica " + key(300));
    }

    @Test
    void aStepPromotedToAModelAfterTheDecisionIsRefusedThoughItIsNotPinned() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");
        sources.promote(300, "model/tiny/r1");

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), signed.signature());

        assertThat(outcome.expired()).extracting(CheckpointExpired::step).containsExactly(100L);
        assertThat(reasons(outcome)).singleElement().asString().contains("step 300 is promoted to model/tiny/r1");
        assertThat(sources.stored).contains("primary " + key(300), "replica " + key(300));
        assertThat(sources.deleted).noneMatch(k -> k.contains(String.format("%012d", 300)));
    }

    @Test
    void aStepWhoseNewerReplacementBecameUnverifiedIsRefused() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", new RetentionPolicy(1, null, null, null, null, null, null), "ops");
        // a step 500 arrives, not verified yet: 400 stays newest verified, nothing else changes
        sources.addUnverified(500);
        sources.latest = 400L;
        byte[] value = decision(List.of(step(400)));

        assertThat(reasons(executor.execute(value, signature.sign(value)))).singleElement().asString()
                .contains("step 400");
        assertThat(executor.execute(signed.value(), signed.signature()).expired())
                .extracting(CheckpointExpired::step).containsExactly(100L, 200L, 300L);
        assertThat(sources.stored).contains("primary " + key(400), "primary " + key(500));
    }

    @Test
    void aDeletionThatAHeadStillFindsIsNotReportedExpired() throws Exception {
        sources.undeletable.add("replica " + key(100));
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), signed.signature());

        assertThat(outcome.expired()).extracting(CheckpointExpired::step).containsExactly(300L);
        assertThat(reasons(outcome)).singleElement().asString().contains(key(100) + " in replica still answers HEAD");
    }

    @Test
    void applyingTwiceIsANoOpOnceTheLedgerRecordsTheExpiry() throws Exception {
        RetentionDecider.Signed first = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");
        RetentionExecutor.Outcome done = executor.execute(first.value(), first.signature());
        done.expired().forEach(e -> sources.expire(e.step(), e.meta().eventId()));
        int deletes = sources.deleted.size();

        RetentionDecider.Signed second = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");
        RetentionExecutor.Outcome again = executor.execute(second.value(), second.signature());
        RetentionExecutor.Outcome replayed = executor.execute(first.value(), first.signature());

        assertThat(second.decided().expire()).isEmpty();
        assertThat(again.expired()).isEmpty();
        assertThat(again.refused()).isEmpty();
        // the journal answers the replayed decision's recorded outcome again, same event ids, and deletes nothing
        assertThat(replayed.expired()).extracting(e -> e.meta().eventId())
                .containsExactlyElementsOf(done.expired().stream().map(e -> e.meta().eventId()).toList());
        assertThat(replayed.refused()).isEmpty();
        assertThat(sources.deleted).hasSize(deletes);
    }

    @Test
    void aLedgerThatCannotAnswerDeletesNothing() throws Exception {
        RetentionDecider.Signed signed = decider.decide("e", "r", KEEP_LAST_AND_BEST, "ops");
        sources.ledgerDown = true;

        RetentionExecutor.Outcome outcome = executor.execute(signed.value(), signed.signature());

        assertThat(outcome.expired()).isEmpty();
        assertThat(reasons(outcome)).singleElement().asString().contains("cannot re-evaluate");
        assertThat(sources.deleted).isEmpty();
    }

    private static List<String> reasons(RetentionExecutor.Outcome outcome) {
        return outcome.refused().map(r -> r.refusals().stream().map(RetentionRefused.Refusal::reason).toList())
                .orElse(List.of());
    }

    private byte[] decision(List<RetentionDecided.ExpiringStep> expire) {
        return EventCodec.encode(RetentionDecided.of(EventMeta.first("run/e/r", CLOCK), "e", "r",
                RetentionPolicies.fields(KEEP_LAST_AND_BEST), sources.latest, CLOCK.instant(), SHA, expire, "ops"));
    }

    private static RetentionDecided.ExpiringStep step(long n) {
        return new RetentionDecided.ExpiringStep(n, List.of(new ExpiredObject("primary", "stowage-primary", key(n), 100),
                new ExpiredObject("replica", "stowage-replica", key(n), 100)));
    }

    private static String key(long step) {
        return FakeRetentionSources.key(step);
    }
}
