package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.GateSignature;
import io.stowage.events.RetentionRefused;
import io.stowage.events.StowageEvent;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.retention.FakeRetentionSources.Crash;
import io.stowage.provideradapter.domain.retention.RetentionEntry.StepEntry;
import io.stowage.provideradapter.persistence.FileRetentionJournal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static io.stowage.provideradapter.domain.retention.FakeRetentionSources.CLOCK;
import static io.stowage.provideradapter.domain.retention.FakeRetentionSources.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The retention journal across crashes, on the real disk: an instance is "killed" ({@link Crash}) in the middle of a
 * step's deletions or before its outcome is sent, and a fresh instance on the same state directory (journal reopened,
 * new executor and delivery) finishes it: each outcome sent once with the event ids journaled for it. And the attempts
 * to make recovery delete too much: a step pinned or promoted after the crash, a journaled key the decision does not
 * name, a torn journal file, an altered decision in the journal, a ledger that cannot answer at recovery.
 */
class RetentionJournalRecoveryTest {
    private static final String KEY = "recovery-test-retention-signing-key-0123456789";
    private static final RetentionPolicy KEEP_LAST_AND_BEST =
            new RetentionPolicy(1, 1, "val_loss", RetentionPolicy.Mode.MIN, null, null, null);

    @TempDir
    Path state;
    final FakeRetentionSources sources = new FakeRetentionSources();
    final List<StowageEvent> sent = new ArrayList<>();
    RetentionDecider.Signed signed;

    @BeforeEach
    void setUp() throws Exception {
        sources.add(100, 0.9);
        sources.add(200, 0.2);
        sources.add(300, 0.5);
        sources.add(400, 0.7);
        sources.latest = 400L;
        // keep-last 1 and keep-best 1: steps 100 and 300 expire, each one object in primary and one in replica
        signed = new RetentionDecider(sources, new GateSignature(KEY), CLOCK).decide("e", "r", KEEP_LAST_AND_BEST, "ops");
    }

    /** A fresh instance: the journal reopened from disk, a new executor and delivery sending into {@link #sent}. */
    RetentionDelivery freshInstance() throws IOException {
        return new RetentionDelivery(executor(), sent::addAll);
    }

    RetentionExecutor executor() throws IOException {
        return new RetentionExecutor(sources, DecisionAuthenticator.of(Optional.of(KEY)), FileRetentionJournal.open(state),
                CLOCK);
    }

    @Test
    void killedBetweenTwoDeletionsOfAStepIsFinishedByAFreshInstanceAndSentOnce() throws IOException {
        sources.crashAt = 2; // step 100's primary object deleted, its replica object not yet
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        assertThat(sources.stored).contains("replica " + key(100)).doesNotContain("primary " + key(100));
        sources.crashAt = 0;

        int acknowledged = freshInstance().retry();
        int again = freshInstance().retry();

        assertThat(acknowledged).isEqualTo(1);
        assertThat(again).isZero();
        assertThat(sent).extracting(e -> ((CheckpointExpired) e).step()).containsExactly(100L, 300L);
        assertThat(sent.get(0).meta().causationId()).isEqualTo(signed.decided().meta().eventId());
        assertThat(((CheckpointExpired) sent.get(0)).objects()).extracting(ExpiredObject::key)
                .containsExactly(key(100), key(100));
        assertThat(sources.stored).containsExactlyInAnyOrder(
                "primary " + key(200), "replica " + key(200), "primary " + key(400), "replica " + key(400));
        assertThat(sources.deleted).allMatch(k -> k.endsWith(key(100)) || k.endsWith(key(300)));
    }

    @Test
    void killedAfterDeletingBeforeSendingSendsTheJournaledEventIdsOnceAndDeletesNothingMore() throws IOException {
        sources.pin(200); // a refusal too: the decision's step set stays 100 and 300, the outcome also holds none
        RetentionDelivery killed = new RetentionDelivery(executor(), events -> {
            throw new Crash("before sending");
        });
        assertThatThrownBy(() -> killed.execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        List<String> journaledIds = FileRetentionJournal.open(state).entry(signed.decided().meta().eventId())
                .orElseThrow().expired().stream().map(e -> e.meta().eventId()).toList();
        int deletes = sources.deleted.size();

        freshInstance().retry();
        freshInstance().retry();

        assertThat(journaledIds).hasSize(2);
        assertThat(sent).extracting(e -> e.meta().eventId()).containsExactlyElementsOf(journaledIds);
        assertThat(sources.deleted).hasSize(deletes);
        assertThat(FileRetentionJournal.open(state).entries()).singleElement().satisfies(e -> assertThat(e.sent()).isTrue());
    }

    @Test
    void aReplayOfTheKilledDecisionFinishesItThroughTheJournalOnly() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;

        RetentionExecutor.Outcome replayed = freshInstance().execute(signed.value(), signed.signature());
        RetentionExecutor.Outcome twice = freshInstance().execute(signed.value(), signed.signature());

        assertThat(replayed.expired()).extracting(CheckpointExpired::step).containsExactly(100L, 300L);
        assertThat(twice.expired()).extracting(e -> e.meta().eventId())
                .containsExactlyElementsOf(replayed.expired().stream().map(e -> e.meta().eventId()).toList());
        assertThat(sources.deleted).hasSize(4); // each of the four objects once; the second replay deleted nothing
        assertThat(freshInstance().retry()).isZero();
    }

    @Test
    void aStepPinnedAfterTheCrashIsNotFinishedAndWhatWasDeletedIsReported() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;
        sources.pin(100);

        freshInstance().retry();

        assertThat(sources.stored).contains("replica " + key(100));
        assertThat(sources.deleted).doesNotContain("replica " + key(100));
        assertThat(sent).filteredOn(CheckpointExpired.class::isInstance)
                .extracting(e -> ((CheckpointExpired) e).step()).containsExactly(300L);
        RetentionRefused refused = (RetentionRefused) sent.stream().filter(RetentionRefused.class::isInstance)
                .findFirst().orElseThrow();
        assertThat(refused.decisionId()).isEqualTo(signed.decided().meta().eventId());
        assertThat(refused.refusals()).singleElement().satisfies(r -> {
            assertThat(r.step()).isEqualTo(100L);
            assertThat(r.reason()).contains("step 100 is pinned", "nothing more deleted",
                    "1 of its 2 object(s) were deleted before the restart (primary " + key(100) + ")");
        });
    }

    @Test
    void aStepPromotedAfterTheCrashKeepsItsRemainingObjects() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;
        sources.promote(100, "model/tiny/r1");

        freshInstance().retry();

        assertThat(sources.stored).contains("replica " + key(100));
        assertThat(sent).filteredOn(RetentionRefused.class::isInstance).singleElement()
                .satisfies(r -> assertThat(((RetentionRefused) r).refusals().get(0).reason())
                        .contains("promoted to model/tiny/r1"));
    }

    @Test
    void aJournaledKeyTheDecisionDoesNotNameIsNeverDeleted() throws IOException {
        FileRetentionJournal journal = FileRetentionJournal.open(state);
        // an entry left DELETING whose step 100 also names step 200's object (kept by keep-best) and latest.json
        List<ExpiredObject> widened = new ArrayList<>(objects(100));
        widened.add(new ExpiredObject("primary", "stowage-primary", key(200), 100));
        widened.add(new ExpiredObject("primary", "stowage-primary", "checkpoints/e/r/latest.json", 10));
        RetentionEntry entry = RetentionEntry.deleting(signed.decided().meta().eventId(), signed.value(),
                signed.signature(), List.of(new ExpiryCheck.Deletion(100, widened),
                        new ExpiryCheck.Deletion(300, objects(300))), List.of(), CLOCK.instant());
        journal.save(entry.withStep(0, new StepEntry(100, RetentionEntry.StepState.DELETING, widened, null, null),
                CLOCK.instant()));

        freshInstance().retry();

        assertThat(sources.deleted).containsExactlyInAnyOrder("primary " + key(300), "replica " + key(300));
        assertThat(sources.stored).contains("primary " + key(100), "replica " + key(100), "primary " + key(200));
        assertThat(sent).filteredOn(RetentionRefused.class::isInstance).singleElement()
                .satisfies(r -> assertThat(((RetentionRefused) r).refusals().get(0).reason())
                        .contains("the journal names " + key(200) + " in primary, which the decision does not name"));
    }

    @Test
    void aTornJournalFileDeletesNothingAndIsKept() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;
        Path file = onlyFile();
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        int deletes = sources.deleted.size();

        RetentionDelivery fresh = freshInstance();
        int acknowledged = fresh.retry();
        RetentionExecutor.Outcome replayed = fresh.execute(signed.value(), signed.signature());

        assertThat(acknowledged).isZero();
        assertThat(sources.deleted).hasSize(deletes);
        assertThat(replayed.expired()).isEmpty();
        assertThat(replayed.refused().orElseThrow().refusals().get(0).reason())
                .contains("cannot record decision", "not overwritten", "nothing deleted");
        assertThat(sent).noneMatch(CheckpointExpired.class::isInstance);
        assertThat(FileRetentionJournal.open(state).unreadable()).singleElement().asString().contains(file.toString());
        assertThat(file).hasBinaryContent(java.util.Arrays.copyOf(bytes, bytes.length / 2));
    }

    @Test
    void aJournaledDecisionThatNoLongerAuthenticatesDeletesNothing() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;
        FileRetentionJournal journal = FileRetentionJournal.open(state);
        RetentionEntry entry = journal.entries().get(0);
        // the decision in the file altered (another requester): its bytes no longer match the journaled signature
        String altered = new String(entry.decision(), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"requestedBy\":\"ops\"", "\"requestedBy\":\"someone\"");
        journal.save(new RetentionEntry(entry.decisionId(), entry.state(),
                altered.getBytes(java.nio.charset.StandardCharsets.UTF_8), entry.signature(), entry.steps(),
                entry.refusals(), null, false, entry.updatedAt()));
        int deletes = sources.deleted.size();

        assertThat(freshInstance().retry()).isZero();

        assertThat(altered).contains("someone");
        assertThat(sources.deleted).hasSize(deletes);
        assertThat(sent).isEmpty();
        assertThat(FileRetentionJournal.open(state).entries().get(0).state()).isEqualTo(RetentionEntry.State.DELETING);
    }

    @Test
    void aLedgerThatCannotAnswerAtRecoveryDeletesNothingUntilItDoes() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;
        sources.ledgerDown = true;

        RetentionDelivery fresh = freshInstance();
        assertThat(fresh.retry()).isZero();
        assertThat(sources.deleted).hasSize(1);
        sources.ledgerDown = false;
        assertThat(fresh.retry()).isEqualTo(1);

        assertThat(sent).extracting(e -> ((CheckpointExpired) e).step()).containsExactly(100L, 300L);
    }

    @Test
    void aStepTheLedgerRecordsExpiredMeanwhileIsNotReportedAgain() throws IOException {
        sources.crashAt = 2;
        assertThatThrownBy(() -> freshInstance().execute(signed.value(), signed.signature())).isInstanceOf(Crash.class);
        sources.crashAt = 0;
        sources.expire(100, "another-decisions-event");

        freshInstance().retry();

        assertThat(sent).extracting(e -> ((CheckpointExpired) e).step()).containsExactly(300L);
        assertThat(sources.deleted).doesNotContain("replica " + key(100));
    }

    private List<ExpiredObject> objects(long step) {
        return List.of(new ExpiredObject("primary", "stowage-primary", key(step), 100),
                new ExpiredObject("replica", "stowage-replica", key(step), 100));
    }

    private Path onlyFile() throws IOException {
        try (Stream<Path> files = Files.list(state.resolve(FileRetentionJournal.DIR_NAME))) {
            return files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
        }
    }
}
