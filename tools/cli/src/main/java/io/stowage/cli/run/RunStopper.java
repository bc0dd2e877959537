package io.stowage.cli.run;

import io.stowage.cli.CliException;
import io.stowage.cli.platform.ServiceLauncher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The safe stop of a run: asks the trainer for a checkpoint through the {@link StopContract} (request file, then
 * {@code SIGUSR1} to the trainer's pid when known), waits within one bounded grace for the answer and for the
 * answered step to be verified, then stops the trainer process if it still runs, terminates the run's pods and
 * releases its temporary volumes through the gate. Produces an {@link Outcome}; a trainer that does not answer in
 * time is stopped all the same, and the outcome's alert says which step is the last verified one.
 */
public final class RunStopper {
    /** How the stopper learns about verified steps (the ledger and the run's {@code latest.json}). */
    public interface Steps {
        /**
         * Waits until every one of {@code files} files of {@code step} is uploaded and verified.
         *
         * @throws CliException when that fails or takes longer than {@code timeout}
         */
        void awaitVerified(long step, int files, Duration timeout);

        /** @return the newest step whose every file is verified, or empty when none is */
        Optional<Long> latestVerified();
    }

    /** What the run holds at the provider. */
    public interface Resources {
        /** @return one line per pod of the run that was terminated */
        List<String> terminatePods();

        /** @return one line per volume of the run released (or blocked) through the gate */
        List<String> releaseVolumes();

        /** @return false when the caller knows no pod or volume of the run (the lines then never speak of any) */
        default boolean held() {
            return true;
        }
    }

    /**
     * @param answeredStep the step the trainer saved for the request, null when it did not answer within the grace
     * @param verified     true when that step was verified within the grace
     * @param lastVerified the run's newest verified step after the stop, null when none is
     * @param trainer      what happened to the trainer process ("exited", "terminated", "not given", ...)
     * @param pods         one line per terminated pod
     * @param volumes      one line per released or blocked volume
     * @param alert        null when the stop was clean, else one line naming the last verified step
     */
    public record Outcome(Long answeredStep, boolean verified, Long lastVerified, String trainer, List<String> pods,
                          List<String> volumes, String alert) {
    }

    private final Steps steps;
    private final Resources resources;
    private final Clock clock;
    private final Consumer<String> progress;

    public RunStopper(Steps steps, Resources resources, Clock clock, Consumer<String> progress) {
        this.steps = steps;
        this.resources = resources;
        this.clock = clock;
        this.progress = progress;
    }

    /**
     * @param runDir  the run directory the trainer writes its steps into
     * @param reason  why, e.g. {@code cap-reached} or {@code wall-time}
     * @param grace   how long the trainer has to answer and its step to be verified
     * @param trainer the trainer's process id, null when Stowage cannot signal it (it then reads the file only)
     */
    public Outcome stop(Path runDir, String reason, Duration grace, Long trainer) {
        String requestId = UUID.randomUUID().toString();
        Instant deadline = clock.instant().plus(grace);
        StopContract.request(runDir, requestId, reason, clock.instant(), deadline);
        progress.accept("asked the trainer for a checkpoint (" + runDir.resolve(StopContract.REQUEST) + "), grace "
                + grace.toSeconds() + " s");
        if (trainer != null) {
            signal(trainer);
        }
        Optional<StopContract.Answer> answer = Optional.empty();
        while (answer.isEmpty() && clock.instant().isBefore(deadline)) {
            ServiceLauncher.pause(200);
            answer = StopContract.answer(runDir, requestId);
        }
        boolean verified = answer.isPresent() && awaitVerified(runDir, answer.get(), deadline);
        String stopped = stopTrainer(trainer);
        List<String> pods = resources.terminatePods();
        List<String> volumes = resources.releaseVolumes();
        Long last = steps.latestVerified().orElse(null);
        String lastText = last == null ? "no step of the run is verified" : "the last verified step is " + last;
        String alert = verified ? null : answer.isEmpty()
                ? "the trainer did not answer the stop request within " + grace.toSeconds() + " s; it was stopped anyway; " + lastText
                : "step " + answer.get().step() + " was not verified within " + grace.toSeconds() + " s; " + lastText;
        return new Outcome(answer.map(StopContract.Answer::step).orElse(null), verified, last, stopped, pods, volumes, alert);
    }

    private boolean awaitVerified(Path runDir, StopContract.Answer answer, Instant deadline) {
        progress.accept("the trainer saved step " + answer.step() + " (" + answer.dir() + "); waiting until it is verified");
        Duration left = Duration.between(clock.instant(), deadline);
        try {
            steps.awaitVerified(answer.step(), files(runDir.resolve(answer.dir())), left.isNegative() ? Duration.ZERO : left);
            return true;
        } catch (CliException e) {
            progress.accept("step " + answer.step() + " not verified: " + e.getMessage());
            return false;
        }
    }

    private static int files(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            return (int) Math.max(1, walk.filter(Files::isRegularFile).count()); // an empty step still needs a verified object
        } catch (IOException e) {
            return 1; // the ledger still has to show at least one verified object
        }
    }

    private void signal(long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-USR1", Long.toString(pid)).redirectErrorStream(true).start();
            if (kill.waitFor() != 0) {
                progress.accept("could not signal process " + pid + " (" + new String(kill.getInputStream().readAllBytes()).strip()
                        + "); the trainer still sees the request file");
            }
        } catch (IOException e) {
            progress.accept("could not signal process " + pid + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String stopTrainer(Long pid) {
        if (pid == null) {
            return "not given";
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return "exited";
        }
        for (int i = 0; i < 25 && process.get().isAlive(); i++) {
            ServiceLauncher.pause(200); // a trainer that answered exits on its own
        }
        if (!process.get().isAlive()) {
            return "exited";
        }
        process.get().destroy();
        for (int i = 0; i < 50 && process.get().isAlive(); i++) {
            ServiceLauncher.pause(200);
        }
        if (process.get().isAlive()) {
            process.get().destroyForcibly();
            return "killed";
        }
        return "terminated";
    }
}
