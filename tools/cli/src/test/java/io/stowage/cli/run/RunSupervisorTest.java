package io.stowage.cli.run;

import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.StowageEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RunSupervisorTest {
    private static final String STARTED = "{\"event\":\"run.started\",\"attemptId\":\"a1\",\"at\":\"%s\",\"resumedFromStep\":null}\n";
    private static final String PROGRESS = "{\"event\":\"run.progress\",\"attemptId\":\"a1\",\"at\":\"2026-12-01T10:00:05Z\",\"step\":50,"
            + "\"wallSeconds\":5.5,\"trainingSeconds\":4.25,\"dataWaitSeconds\":0.5,\"checkpointSeconds\":0.125}\n";
    private static final String FINISHED = "{\"event\":\"run.finished\",\"attemptId\":\"a1\",\"at\":\"2026-12-01T10:00:09Z\",\"step\":100,"
            + "\"wallSeconds\":9,\"trainingSeconds\":8,\"dataWaitSeconds\":0.5,\"checkpointSeconds\":0.25,\"outcome\":\"completed\",\"reason\":null}\n";

    @TempDir
    Path dir;
    private final List<StowageEvent> published = new CopyOnWriteArrayList<>();
    private final List<String> torn = new CopyOnWriteArrayList<>();
    private final List<Long> verified = new CopyOnWriteArrayList<>();
    private boolean verifies = true;

    private final RunStopper.Steps steps = new RunStopper.Steps() {
        @Override
        public void awaitVerified(long step, int files, Duration timeout) {
            if (!verifies) {
                throw new CliException(CliException.FAILED, "step " + step + " is not verified");
            }
            verified.add(step);
        }

        @Override
        public Optional<Long> latestVerified() {
            return verified.isEmpty() ? Optional.empty() : Optional.of(verified.get(verified.size() - 1));
        }
    };
    private final RunStopper.Resources resources = new RunStopper.Resources() {
        @Override
        public List<String> terminatePods() {
            torn.add("pods");
            return List.of("pod-1 terminated");
        }

        @Override
        public List<String> releaseVolumes() {
            torn.add("volumes");
            return List.of("vol-1 DESTROYED");
        }
    };

    private RunSupervisor supervisor(Optional<RunSupervisor.CapRequest> cap) {
        return supervisor(cap, Duration.ofSeconds(20));
    }

    private RunSupervisor supervisor(Optional<RunSupervisor.CapRequest> cap, Duration grace) {
        return new RunSupervisor(dir, new RunFile(dir, "exp", "r", "res-1"), published::add, () -> cap, steps, resources,
                grace, null, Clock.systemUTC(), s -> { });
    }

    private void append(String text) throws Exception {
        Files.writeString(dir.resolve(RunFile.NAME), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void completeLinesArePublishedOnceWithIdsARestartedWatchDerivesAgainAndAPartialLineWaits() throws Exception {
        append(STARTED.formatted("2026-12-01T10:00:00Z") + PROGRESS + "not json\n" + FINISHED.substring(0, 40));
        RunSupervisor first = supervisor(Optional.empty());

        first.tick();

        assertThat(published).hasSize(2);
        RunStarted started = (RunStarted) published.get(0);
        assertThat(started.resources()).isEqualTo("res-1");
        assertThat(started.meta().time()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        RunProgress progress = (RunProgress) published.get(1);
        assertThat(progress.step()).isEqualTo(50);
        assertThat(progress.times().trainingSeconds()).isEqualTo(4.25);
        assertThat(progress.times().checkpointSeconds()).isEqualTo(0.125);
        first.tick();
        assertThat(published).as("nothing new, nothing sent").hasSize(2);

        List<String> ids = new ArrayList<>(published.stream().map(e -> e.meta().eventId()).toList());
        published.clear();
        supervisor(Optional.empty()).tick();
        assertThat(published.stream().map(e -> e.meta().eventId()).toList()).as("a restarted watch sends the same ids").isEqualTo(ids);
        assertThat(published).allSatisfy(e -> assertThat(EventCodec.decode(e.topic(), EventCodec.encode(e))).isEqualTo(e));
    }

    @Test
    void aCompletedRunIsTornDownOnlyAfterItsLastStepIsVerified() throws Exception {
        Files.createDirectories(dir.resolve("step-000000000050"));
        Files.writeString(dir.resolve("step-000000000050/model.pt"), "w50");
        Files.createDirectories(dir.resolve("step-000000000100"));
        Files.writeString(dir.resolve("step-000000000100/model.pt"), "w100");
        append(STARTED.formatted("2026-12-01T10:00:00Z") + PROGRESS + FINISHED);
        RunSupervisor supervisor = supervisor(Optional.empty());

        Optional<Integer> ended = awaitEnd(supervisor);

        assertThat(ended).contains(0);
        assertThat(verified).containsExactly(100L);
        assertThat(torn).containsExactly("pods", "volumes");
        assertThat(published.get(published.size() - 1)).isInstanceOf(RunFinished.class);
    }

    @Test
    void aCompletedRunWhoseLastStepIsNotVerifiedKeepsItsPodsAndVolumes() throws Exception {
        verifies = false;
        Files.createDirectories(dir.resolve("step-000000000100"));
        Files.writeString(dir.resolve("step-000000000100/model.pt"), "w100");
        append(STARTED.formatted("2026-12-01T10:00:00Z") + FINISHED);

        assertThat(awaitEnd(supervisor(Optional.empty()))).contains(CliException.FAILED);
        assertThat(torn).isEmpty();
    }

    @Test
    void aCapRequestStopsTheRunThroughTheStopContractAndACapSpentBeforeTheAttemptDoesNot() throws Exception {
        Instant now = Instant.now();
        append(STARTED.formatted(now.toString()));
        RunSupervisor old = supervisor(Optional.of(new RunSupervisor.CapRequest(now.minusSeconds(120), now.minusSeconds(60))));
        for (int i = 0; i < 3; i++) {
            assertThat(old.tick()).isEmpty();
        }
        assertThat(dir.resolve(StopContract.REQUEST)).doesNotExist();

        RunSupervisor capped = supervisor(Optional.of(new RunSupervisor.CapRequest(now.plusSeconds(1), null)));
        capped.tick();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve(StopContract.REQUEST)));
        String requestId = EventCodec.mapper().readTree(dir.resolve(StopContract.REQUEST).toFile()).path("requestId").asText();
        Files.createDirectories(dir.resolve("step-000000000070"));
        Files.writeString(dir.resolve("step-000000000070/model.pt"), "w70");
        Files.writeString(dir.resolve(StopContract.ANSWER), "{\"requestId\":\"" + requestId + "\",\"step\":70,\"dir\":\"step-000000000070\"}");

        assertThat(awaitEnd(capped)).contains(0);
        assertThat(verified).containsExactly(70L);
        assertThat(torn).containsExactly("pods", "volumes");
    }

    @Test
    void aTrainerThatDoesNotAnswerTheCapIsStoppedAnywayAndItsAttemptIsFinishedForIt() throws Exception {
        Instant now = Instant.now();
        append(STARTED.formatted(now.toString()) + PROGRESS);
        RunSupervisor capped = supervisor(Optional.of(new RunSupervisor.CapRequest(now.plusSeconds(1), null)), Duration.ofSeconds(1));

        assertThat(awaitEnd(capped)).contains(CliException.FAILED);

        assertThat(torn).as("pods and volumes go all the same").containsExactly("pods", "volumes");
        assertThat(verified).isEmpty();
        RunFinished finished = (RunFinished) published.get(published.size() - 1);
        assertThat(finished.outcome()).isEqualTo("stopped");
        assertThat(finished.reason()).startsWith("cap-reached; the trainer did not answer the stop request within 1 s");
        assertThat(finished.step()).as("the last progress the trainer reported").isEqualTo(50);
        assertThat(finished.attemptId()).isEqualTo("a1");
    }

    /** A watch without --resources: it knows no pod or volume of the run. */
    private final RunStopper.Resources none = new RunStopper.Resources() {
        @Override
        public List<String> terminatePods() {
            torn.add("pods");
            return List.of();
        }

        @Override
        public List<String> releaseVolumes() {
            torn.add("volumes");
            return List.of();
        }

        @Override
        public boolean held() {
            return false;
        }
    };

    @Test
    void aScanOnceOfAFinishedRunSaysItFinishedStartsNothingAndSpeaksOfNoPodItDoesNotHold() throws Exception {
        append(STARTED.formatted("2026-12-01T10:00:00Z") + FINISHED);
        List<String> lines = new CopyOnWriteArrayList<>();
        RunSupervisor once = new RunSupervisor(dir, new RunFile(dir, "exp", "r", null), published::add, Optional::empty,
                steps, none, Duration.ofSeconds(20), null, Clock.systemUTC(), lines::add);

        assertThat(once.readOnce()).contains("the run finished (completed at step 100): no step to wait on; this watch holds"
                + " no pods or volumes");
        assertThat(published.get(published.size() - 1)).isInstanceOf(RunFinished.class);
        assertThat(verified).as("no wait on a step").isEmpty();
        assertThat(torn).isEmpty();
        assertThat(lines).isEmpty();
    }

    @Test
    void aScanOnceOfARunningRunHasNothingToSay() throws Exception {
        append(STARTED.formatted("2026-12-01T10:00:00Z") + PROGRESS);
        assertThat(supervisor(Optional.empty()).readOnce()).isEmpty();
        assertThat(published).hasSize(2);
    }

    @Test
    void aWatchThatHoldsNothingSaysSoWhenTheRunEndsAndTearsNothingDown() throws Exception {
        Files.createDirectories(dir.resolve("step-000000000100"));
        Files.writeString(dir.resolve("step-000000000100/model.pt"), "w100");
        append(STARTED.formatted("2026-12-01T10:00:00Z") + FINISHED);
        List<String> lines = new CopyOnWriteArrayList<>();
        RunSupervisor watch = new RunSupervisor(dir, new RunFile(dir, "exp", "r", null), published::add, Optional::empty,
                steps, none, Duration.ofSeconds(20), null, Clock.systemUTC(), lines::add);

        assertThat(awaitEnd(watch)).contains(0);
        assertThat(torn).isEmpty();
        assertThat(lines).containsExactly("the run completed at step 100; waiting until step 100 is verified (this watch"
                + " holds no pods or volumes)", "the run's last step 100 is verified; nothing held, nothing torn down");
        assertThat(String.join("\n", lines)).doesNotContain("pods are terminated").doesNotContain("torn down after");
    }

    private static Optional<Integer> awaitEnd(RunSupervisor supervisor) {
        Optional<Integer>[] ended = new Optional[]{Optional.empty()};
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
            ended[0] = supervisor.tick();
            return ended[0].isPresent();
        });
        return ended[0];
    }
}
