package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The safe stop's order and its alert, with a real trainer process ({@code sleep}, which never answers) and
 * recorded provider calls: the request is written, the trainer is stopped when it does not answer, the pods and
 * volumes are handled after the answer's verification, and the alert names the last verified step.
 */
class RunStopperTest {
    @TempDir
    Path runDir;
    private final List<String> calls = new ArrayList<>();

    private RunStopper stopper(boolean verifies, Long lastVerified) {
        RunStopper.Steps steps = new RunStopper.Steps() {
            @Override
            public void awaitVerified(long step, int files, Duration timeout) {
                calls.add("verify " + step + " (" + files + " files)");
                if (!verifies) {
                    throw new CliException(CliException.FAILED, "timed out");
                }
            }

            @Override
            public Optional<Long> latestVerified() {
                return Optional.ofNullable(lastVerified);
            }
        };
        RunStopper.Resources resources = new RunStopper.Resources() {
            @Override
            public List<String> terminatePods() {
                calls.add("pods");
                return List.of("pod-1 terminated");
            }

            @Override
            public List<String> releaseVolumes() {
                calls.add("volumes");
                return List.of("vol-1 DESTROYED");
            }
        };
        return new RunStopper(steps, resources, Clock.systemUTC(), calls::add);
    }

    @Test
    void aTrainerThatNeverAnswersIsStoppedAfterTheGraceAndTheAlertNamesTheLastVerifiedStep() throws Exception {
        Process trainer = new ProcessBuilder("sleep", "600").start();
        try {
            RunStopper.Outcome outcome = stopper(true, 350L).stop(runDir, "cap-reached", Duration.ofSeconds(1), trainer.pid());

            assertThat(trainer.waitFor(15, TimeUnit.SECONDS)).isTrue();
            assertThat(outcome.answeredStep()).isNull();
            assertThat(outcome.verified()).isFalse();
            assertThat(outcome.trainer()).isIn("terminated", "exited"); // sleep dies of SIGUSR1 or of SIGTERM
            assertThat(outcome.alert()).isEqualTo("the trainer did not answer the stop request within 1 s; it was stopped"
                    + " anyway; the last verified step is 350");
            assertThat(calls).containsSubsequence("pods", "volumes").noneMatch(c -> c.startsWith("verify"));
            JsonNode request = EventCodec.mapper().readTree(runDir.resolve(StopContract.REQUEST).toFile());
            assertThat(request.path("reason").asText()).isEqualTo("cap-reached");
            assertThat(request.path("requestId").asText()).isNotBlank();
        } finally {
            trainer.destroyForcibly();
        }
    }

    @Test
    void anAnsweredStepIsVerifiedBeforeThePodsAndVolumesGo() throws Exception {
        Thread answerer = new Thread(() -> {
            try {
                Path request = runDir.resolve(StopContract.REQUEST);
                while (!Files.exists(request)) {
                    Thread.sleep(50);
                }
                String id = EventCodec.mapper().readTree(request.toFile()).path("requestId").asText();
                Path step = Files.createDirectories(runDir.resolve("step-000000000064"));
                Files.writeString(step.resolve("model.pt"), "weights");
                Files.writeString(step.resolve("optimizer.pt"), "state");
                Files.writeString(runDir.resolve(StopContract.ANSWER),
                        "{\"requestId\":\"" + id + "\",\"step\":64,\"dir\":\"step-000000000064\"}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        answerer.start();

        RunStopper.Outcome outcome = stopper(true, 64L).stop(runDir, "wall-time", Duration.ofSeconds(30), null);

        answerer.join();
        assertThat(outcome.answeredStep()).isEqualTo(64);
        assertThat(outcome.verified()).isTrue();
        assertThat(outcome.alert()).isNull();
        assertThat(outcome.trainer()).isEqualTo("not given");
        assertThat(calls).containsSubsequence("verify 64 (2 files)", "pods", "volumes");
    }

    @Test
    void anAnswerToAnotherRequestOrOutsideTheRunDirectoryIsNoAnswer() throws Exception {
        Files.writeString(runDir.resolve(StopContract.ANSWER), "{\"requestId\":\"old\",\"step\":50,\"dir\":\"step-50\"}");
        assertThat(StopContract.answer(runDir, "new")).isEmpty();
        Files.writeString(runDir.resolve(StopContract.ANSWER), "{\"requestId\":\"new\",\"step\":50,\"dir\":\"../elsewhere\"}");
        assertThat(StopContract.answer(runDir, "new")).isEmpty();
        Files.writeString(runDir.resolve(StopContract.ANSWER), "{\"requestId\":\"new\",\"step\":50,\"dir\":\"step-50\"}");
        assertThat(StopContract.answer(runDir, "new")).contains(new StopContract.Answer(50, "step-50"));
    }

    @Test
    void anAnsweredStepThatIsNotVerifiedInTimeStillStopsTheRunAndSaysSo() {
        Thread answerer = new Thread(() -> {
            try {
                Path request = runDir.resolve(StopContract.REQUEST);
                while (!Files.exists(request)) {
                    Thread.sleep(50);
                }
                String id = EventCodec.mapper().readTree(request.toFile()).path("requestId").asText();
                Files.createDirectories(runDir.resolve("step-000000000070"));
                Files.writeString(runDir.resolve(StopContract.ANSWER),
                        "{\"requestId\":\"" + id + "\",\"step\":70,\"dir\":\"step-000000000070\"}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        answerer.start();

        RunStopper.Outcome outcome = stopper(false, null).stop(runDir, "cap-reached", Duration.ofSeconds(20), null);

        assertThat(outcome.verified()).isFalse();
        assertThat(outcome.alert()).isEqualTo("step 70 was not verified within 20 s; no step of the run is verified");
        assertThat(calls).containsSubsequence("verify 70 (1 files)", "pods", "volumes");
    }
}
