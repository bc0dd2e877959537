package io.stowage.cli.run;

import io.stowage.cli.CliException;
import io.stowage.cli.checkpoint.StepScanner;
import io.stowage.events.EventMeta;
import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.RunTimes;
import io.stowage.events.StowageEvent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What {@code stowage watch} does for the run beside the steps, once per scan: publishes the trainer's
 * {@link RunFile} lines as run events; when the provider-adapter has asked the run to checkpoint because it reached a
 * cap, runs the safe stop ({@link RunStopper}: request, bounded grace, step verified, pods terminated, volumes released
 * through the gate) without a person; and when the trainer reports the run completed (or stopped by itself), waits for
 * its last step to be verified and then terminates its pods and releases its volumes through the gate. The stop and the
 * teardown run on their own thread, so the watch goes on publishing the step they wait for.
 */
public final class RunSupervisor {
    private final Path runDir;
    private final RunFile file;
    private final Consumer<StowageEvent> publish;
    private final Supplier<Optional<CapRequest>> capRequested;
    private final RunStopper stopper;
    private final RunStopper.Steps steps;
    private final RunStopper.Resources resources;
    private final Duration grace;
    private final Long trainerPid;
    private final Clock clock;
    private final Consumer<String> progress;
    private final Instant since;
    private RunStarted attempt;
    private RunProgress lastProgress;
    private RunFinished finished;
    private CompletableFuture<Integer> ending;

    /**
     * @param capRequested the provider-adapter's request that the run checkpoint at its cap (empty when it made none, or
     *                     when the watch has no provider run id); asked once per scan
     * @param grace        how long the trainer has to answer a cap and a finished run's last step to be verified
     * @param trainerPid   the trainer's process id to signal and to stop after the grace, null when unknown
     */
    public RunSupervisor(Path runDir, RunFile file, Consumer<StowageEvent> publish, Supplier<Optional<CapRequest>> capRequested,
                         RunStopper.Steps steps, RunStopper.Resources resources, Duration grace, Long trainerPid,
                         Clock clock, Consumer<String> progress) {
        this.runDir = runDir;
        this.file = file;
        this.publish = publish;
        this.capRequested = capRequested;
        this.steps = steps;
        this.resources = resources;
        this.stopper = new RunStopper(steps, resources, clock, progress);
        this.grace = grace;
        this.trainerPid = trainerPid;
        this.clock = clock;
        this.progress = progress;
        this.since = clock.instant();
    }

    /** @return the watch's exit code once the run is stopped or torn down (0: at a verified step), else empty */
    public Optional<Integer> tick() {
        drain();
        if (ending != null) {
            return ending.isDone() ? Optional.of(ending.join()) : Optional.empty();
        }
        if (finished != null && Set.of("completed", "stopped").contains(finished.outcome())) {
            ending = CompletableFuture.supplyAsync(this::teardown);
        } else if (finished == null) {
            Optional<CapRequest> asked = capRequested.get();
            Instant from = attempt != null ? attempt.meta().time() : since;
            if (asked.isPresent() && asked.get().appliesFrom(from)) {
                progress.accept("the provider-adapter asked for a checkpoint at " + asked.get().requestedAt()
                        + " (the run reached a cap); stopping it safely");
                ending = CompletableFuture.supplyAsync(this::stopAtCap);
            }
        }
        return Optional.empty();
    }

    /**
     * Publishes the run file's new lines and starts nothing (no stop, no teardown): what {@code watch --once} does.
     *
     * @return when the run file says the attempt finished, one line saying so and that this scan waits on nothing and
     *         tears nothing down; empty while it runs
     */
    public Optional<String> readOnce() {
        drain();
        if (finished == null) {
            return Optional.empty();
        }
        return Optional.of("the run finished (" + finished.outcome() + " at step " + finished.step() + "): no step to wait on; "
                + (resources.held() ? "--once tears nothing down" : "this watch holds no pods or volumes"));
    }

    /**
     * The provider-adapter's cap state of the run.
     *
     * @param requestedAt when it asked the run to checkpoint (or stopped it at once, having no running pod)
     * @param stoppedAt   when it stopped the run's pods, null before
     */
    public record CapRequest(Instant requestedAt, Instant stoppedAt) {
        /** @return true unless the cap was spent before {@code attemptStart}: a resumed attempt is not stopped by an old cap */
        boolean appliesFrom(Instant attemptStart) {
            return stoppedAt == null || !stoppedAt.isBefore(attemptStart);
        }
    }

    // the main loop and the stop thread both read the file: one at a time, each line published once
    private synchronized void drain() {
        for (RunFile.Line line : file.read()) {
            if (line.event() == null) {
                progress.accept(line.problem());
                continue;
            }
            publish.accept(line.event());
            remember(line.event());
        }
    }

    private void remember(StowageEvent event) {
        if (event instanceof RunStarted e) {
            attempt = e;
            lastProgress = null;
            finished = null;
        } else if (event instanceof RunProgress e) {
            lastProgress = e;
        } else if (event instanceof RunFinished e && (attempt == null || attempt.attemptId().equals(e.attemptId()))) {
            finished = e;
        }
    }

    private int stopAtCap() {
        RunStopper.Outcome outcome = stopper.stop(runDir, "cap-reached", grace, trainerPid);
        outcome.pods().forEach(p -> progress.accept("pod " + p));
        outcome.volumes().forEach(v -> progress.accept("volume " + v));
        if (outcome.alert() != null) {
            progress.accept("alert: " + outcome.alert());
            finishForDeafTrainer(outcome);
            return CliException.FAILED;
        }
        progress.accept("stopped at the cap at verified step " + outcome.answeredStep());
        return 0;
    }

    // a trainer that never answered wrote no finish line: the ledger still learns how the attempt ended
    private synchronized void finishForDeafTrainer(RunStopper.Outcome outcome) {
        drain();
        if (attempt == null || finished != null) {
            return;
        }
        RunTimes times = lastProgress != null ? lastProgress.times() : new RunTimes(0, 0, 0, 0);
        long step = lastProgress != null ? lastProgress.step() : 0;
        publish.accept(RunFinished.of(EventMeta.first("run/" + attempt.experiment() + "/" + attempt.run(), clock),
                attempt.experiment(), attempt.run(), attempt.attemptId(), step, times, "stopped",
                "cap-reached; " + outcome.alert()));
    }

    private int teardown() {
        Optional<StepScanner.Step> last = lastStep(finished.step());
        if (last.isEmpty()) {
            progress.accept("the run " + finished.outcome() + " at step " + finished.step() + " but wrote no step"
                    + (resources.held() ? "; its pods and volumes are left" : ""));
            return CliException.FAILED;
        }
        long step = last.get().step();
        progress.accept("the run " + finished.outcome() + " at step " + finished.step() + "; waiting until step " + step
                + " is verified" + (resources.held() ? ", then its pods are terminated and its volumes released"
                : " (this watch holds no pods or volumes)"));
        try {
            steps.awaitVerified(step, files(last.get().dir()), grace);
        } catch (CliException e) {
            progress.accept("alert: step " + step + " was not verified within " + grace.toSeconds() + " s (" + e.getMessage()
                    + ")" + (resources.held() ? "; the run's pods and volumes are left for the cap sweep" : ""));
            return CliException.FAILED;
        }
        if (!resources.held()) {
            progress.accept("the run's last step " + step + " is verified; nothing held, nothing torn down");
            return 0;
        }
        resources.terminatePods().forEach(p -> progress.accept("pod " + p));
        resources.releaseVolumes().forEach(v -> progress.accept("volume " + v));
        progress.accept("run torn down after its last step " + step + " was verified");
        return 0;
    }

    private Optional<StepScanner.Step> lastStep(long upTo) {
        try {
            List<StepScanner.Step> ready = StepScanner.scan(runDir, Set.of()).ready();
            return ready.stream().filter(s -> s.step() <= upTo).max(Comparator.comparingLong(StepScanner.Step::step));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int files(Path dir) {
        try (var walk = java.nio.file.Files.walk(dir)) {
            return (int) Math.max(1, walk.filter(java.nio.file.Files::isRegularFile).count());
        } catch (IOException e) {
            return 1;
        }
    }
}
