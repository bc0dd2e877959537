package io.stowage.provideradapter.release;

import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.GateSignature;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.OutcomeDelivery;
import io.stowage.provideradapter.domain.ReleaseEntry;
import io.stowage.provideradapter.domain.ReleaseHandler;
import io.stowage.provideradapter.domain.ReleaseProvider;
import io.stowage.provideradapter.domain.ReleaseResult;
import io.stowage.provideradapter.persistence.FileReleaseJournal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release journal across crashes, on the real disk: an instance "crashes" by stopping after a journaled step
 * (the steps are run by hand up to there), and a fresh instance on the same state directory (journal reopened,
 * new handler) finishes the release; each outcome is sent exactly once, with the event id recorded for it.
 */
class ReleaseJournalRecoveryTest {
    static final String KEY = "recovery-test-gate-signing-key-0123456789";

    @TempDir
    Path tmp;
    Path state;
    Path vol;
    Path dir;
    Path sibling;
    final List<StowageEvent> sent = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        state = tmp.resolve("state");
        vol = Files.createDirectories(tmp.resolve("vol"));
        Files.createDirectories(tmp.resolve("ws"));
        dir = vol.resolve("ckpt/run-1/step-100");
        Files.createDirectories(dir.resolve("shards"));
        Files.writeString(dir.resolve("model.bin"), "weights");
        Files.writeString(dir.resolve("shards/part-0"), "0123456789");
        Files.writeString(dir.resolve("shards/part-1"), "abc");
        sibling = Files.writeString(vol.resolve("ckpt/run-1/notes.txt"), "keep me");
    }

    /** A fresh instance: the journal reopened from disk, a new handler and delivery. */
    OutcomeDelivery freshInstance() throws IOException {
        return new OutcomeDelivery(handler(), sent::add);
    }

    ReleaseHandler handler() throws IOException {
        return new ReleaseHandler(new LocalDiskProvider(Approvals.policy(vol)),
                DecisionAuthenticator.of(Optional.of(KEY)), FileReleaseJournal.open(state), Clock.systemUTC());
    }

    @Test
    void aCrashBetweenRenameAsideAndDeleteIsFinishedByAFreshInstanceAndReportedOnce() throws IOException {
        GatePassed gate = decide();
        Path aside = crashAfterRenameAside(gate);
        assertThat(dir).doesNotExist();
        assertThat(aside.resolve("model.bin")).hasContent("weights");

        OutcomeDelivery restarted = freshInstance();
        assertThat(restarted.retry()).isEqualTo(1);

        assertThat(aside).doesNotExist();
        assertThat(dir).doesNotExist();
        assertThat(sibling).hasContent("keep me");
        assertThat(sent).singleElement().isInstanceOfSatisfying(VolumeReleased.class, released -> {
            assertThat(released.requestId()).isEqualTo(gate.requestId());
            assertThat(released.fileCount()).isEqualTo(3);
            assertThat(released.totalBytes()).isEqualTo(20);
            assertThat(released.meta().causationId()).isEqualTo(gate.meta().eventId());
        });
        assertThat(freshInstance().retry()).as("a second restart sends nothing").isZero();
        assertThat(sent).hasSize(1);
        ReleaseEntry done = FileReleaseJournal.open(state).entry(gate.requestId()).orElseThrow();
        assertThat(done.state()).isEqualTo(ReleaseEntry.State.DONE);
        assertThat(done.sent()).isTrue();
        assertThat(done.outcome()).isEqualTo(sent.get(0));
    }

    @Test
    void aRedeliveredDecisionAfterTheReleaseAnswersTheSameOutcomeAndDeletesNothing() throws IOException {
        GatePassed gate = decide();
        ReleaseHandler first = handler();
        StowageEvent outcome = deliver(first, gate).orElseThrow();
        assertThat(dir).doesNotExist();
        // the same files written again at the same path: a second execution would delete them
        Files.createDirectories(dir.resolve("shards"));
        Files.writeString(dir.resolve("model.bin"), "weights");
        Files.writeString(dir.resolve("shards/part-0"), "0123456789");
        Files.writeString(dir.resolve("shards/part-1"), "abc");

        StowageEvent again = deliver(first, gate).orElseThrow();
        StowageEvent afterRestart = deliver(handler(), gate).orElseThrow();

        assertThat(outcome).isInstanceOf(VolumeReleased.class);
        assertThat(again).isEqualTo(outcome);
        assertThat(afterRestart).isEqualTo(outcome);
        assertThat(afterRestart.meta().eventId()).isEqualTo(outcome.meta().eventId());
        assertThat(dir.resolve("model.bin")).hasContent("weights");
        assertThat(dir.resolve("shards/part-1")).hasContent("abc");
    }

    @Test
    void aCrashMidwayWithAFileAddedToTheRenamedTreeDeletesNothingMoreAndNamesWhatItKept() throws IOException {
        GatePassed gate = decide();
        Path aside = crashAfterRenameAside(gate);
        Files.delete(aside.resolve("shards/part-0")); // deleted before the crash
        Files.writeString(aside.resolve("shards/late.bin"), "written through an open directory");
        Files.writeString(aside.resolve("model.bin"), "WEIGHTS");

        freshInstance().retry();

        assertThat(sent).singleElement().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed ->
                assertThat(failed.reason()).contains("nothing deleted by this pass (1 of 3 approved file(s), 10 bytes, were already gone",
                        "added shards/late.bin", "changed model.bin (bytes 7->7", "moved back to " + dir));
        assertThat(aside).doesNotExist();
        assertThat(dir.resolve("shards/late.bin")).hasContent("written through an open directory");
        assertThat(dir.resolve("model.bin")).hasContent("WEIGHTS");
        assertThat(dir.resolve("shards/part-1")).as("approved and unchanged, but the tree is not all approved: kept")
                .hasContent("abc");
        assertThat(freshInstance().retry()).isZero();
        assertThat(sent).hasSize(1);
    }

    @Test
    void aCrashAfterApprovalButBeforeAnyStepIsExecutedOnceAtStart() throws IOException {
        GatePassed gate = decide();
        FileReleaseJournal.open(state).save(ReleaseEntry.approved(gate, Clock.systemUTC().instant()));

        freshInstance().retry();

        assertThat(dir).doesNotExist();
        assertThat(sent).singleElement().isInstanceOf(VolumeReleased.class);
    }

    @Test
    void anOutcomeWhoseSendFailedIsSentAgainWithTheSameIdUntilAcknowledged() throws IOException {
        GatePassed gate = decide();
        ReleaseHandler handler = handler();
        List<String> attempts = new ArrayList<>();
        OutcomeDelivery flaky = new OutcomeDelivery(handler, event -> {
            attempts.add(event.meta().eventId());
            if (attempts.size() == 1) {
                throw new IllegalStateException("broker unreachable");
            }
            sent.add(event);
        });

        StowageEvent outcome = deliver(handler, gate).orElseThrow();
        assertThat(flaky.deliver(outcome)).isFalse();
        assertThat(FileReleaseJournal.open(state).entry(gate.requestId()).orElseThrow().unsent()).isTrue();

        assertThat(flaky.retry()).as("the timer sends it again").isEqualTo(1);
        assertThat(flaky.retry()).as("acknowledged: not again").isZero();
        assertThat(freshInstance().retry()).as("nor after a restart").isZero();
        assertThat(attempts).containsExactly(outcome.meta().eventId(), outcome.meta().eventId());
        assertThat(sent).containsExactly(outcome);
    }

    @Test
    void theTimersRetryDuringAReleaseWaitsAndDoesNotSendItsOutcomeASecondTime() throws Exception {
        GatePassed gate = decide();
        java.util.concurrent.CountDownLatch deleting = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch proceed = new java.util.concurrent.CountDownLatch(1);
        LocalDiskProvider disk = new LocalDiskProvider(Approvals.policy(vol));
        ReleaseProvider blocking = new ReleaseProvider() {
            @Override
            public String name() {
                return disk.name();
            }

            @Override
            public Optional<String> refusal(ApprovedRelease approved) {
                return disk.refusal(approved);
            }

            @Override
            public ReleaseResult finish(ApprovedRelease approved, Path aside) {
                deleting.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return disk.finish(approved, aside);
            }
        };
        List<StowageEvent> sends = java.util.Collections.synchronizedList(new ArrayList<>());
        OutcomeDelivery delivery = new OutcomeDelivery(new ReleaseHandler(blocking, DecisionAuthenticator.of(
                Optional.of(KEY)), FileReleaseJournal.open(state), Clock.systemUTC()), sends::add);
        byte[] value = EventCodec.encode(gate);
        java.util.concurrent.CompletableFuture<OutcomeDelivery.Released> consumer = java.util.concurrent
                .CompletableFuture.supplyAsync(() -> delivery.release(value, new GateSignature(KEY).sign(value)));
        assertThat(deleting.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Thread timer = new Thread(delivery::retry, "release-outcome-retry");
        timer.start();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (timer.getState() != Thread.State.BLOCKED && timer.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(timer.getState()).as("the timer waits for the release and its send").isEqualTo(Thread.State.BLOCKED);
        proceed.countDown();
        OutcomeDelivery.Released released = consumer.get(10, java.util.concurrent.TimeUnit.SECONDS);
        timer.join(10_000);

        assertThat(released.acknowledged()).isTrue();
        assertThat(dir).doesNotExist();
        assertThat(sends).as("one send of the outcome, by the consumer").singleElement()
                .isEqualTo(released.outcome().orElseThrow()).isInstanceOf(VolumeReleased.class);
        assertThat(delivery.retry()).isZero();
    }

    @Test
    void aForgedDecisionsRefusalThatCannotBeSentIsThrownNotSwallowed() throws IOException {
        GatePassed gate = decide();
        ReleaseHandler handler = handler();
        StowageEvent refusal = handler.handle(EventCodec.encode(gate), null).orElseThrow();
        OutcomeDelivery failing = new OutcomeDelivery(handler, event -> {
            throw new IllegalStateException("broker unreachable");
        });

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> failing.deliver(refusal))
                .hasMessage("broker unreachable");
        assertThat(dir.resolve("model.bin")).hasContent("weights");
    }

    /** Runs the handler's steps by hand up to the rename aside, as a crash right after it would leave them. */
    Path crashAfterRenameAside(GatePassed gate) throws IOException {
        FileReleaseJournal journal = FileReleaseJournal.open(state);
        ReleaseEntry approved = ReleaseEntry.approved(gate, Clock.systemUTC().instant());
        journal.save(approved);
        Path aside = ApprovedRelease.of(gate).asideFor(gate.requestId());
        journal.save(approved.deleting(aside.toString(), Clock.systemUTC().instant()));
        Files.move(dir, aside, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return aside;
    }

    GatePassed decide() throws IOException {
        List<ConditionResult> conditions = IntStream.rangeClosed(1, 5).mapToObj(i -> new ConditionResult(i,
                ConditionResult.NAMES.get(i - 1), true, "held", List.of("ev-" + i))).toList();
        String requestId = UUID.randomUUID().toString();
        return GatePassed.of(EventMeta.first(requestId, Clock.systemUTC()), requestId, dir.toString(), false,
                List.of("checkpoint/exp/run-1/000000000100"), DirectoryFingerprint.of(dir).sha256(), conditions,
                DirectoryInventory.take(dir));
    }

    static Optional<StowageEvent> deliver(ReleaseHandler handler, GatePassed gate) {
        byte[] value = EventCodec.encode(gate);
        return handler.handle(value, new GateSignature(KEY).sign(value));
    }
}
