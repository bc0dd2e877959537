package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.output.Progress;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One run directory watched for new complete steps: each scan ({@link StepScanner}) turns every
 * complete, unpublished step directory into a checkpoint manifest and a {@code checkpoint.published}
 * event ({@link CheckpointPublisher}), sends it ({@link EventPublisher}), prints the provenance
 * warnings at once, and records the step in the {@link WatchState} only after Kafka acknowledged it.
 */
public final class StepWatcher {
    private final Path root;
    private final String experiment;
    private final String run;
    private final Long keyEvery;
    private final WatchState state;
    private final CheckpointPublisher publisher;
    private final EventPublisher events;
    private final Progress progress;
    private final Set<Long> refused = new HashSet<>();

    /**
     * @param keyEvery every step divisible by it is a key checkpoint; null for none
     * @param progress where published steps and warnings are printed
     */
    public StepWatcher(Path root, String experiment, String run, Long keyEvery, WatchState state,
                       CheckpointPublisher publisher, EventPublisher events, Progress progress) {
        this.root = root;
        this.experiment = experiment;
        this.run = run;
        this.keyEvery = keyEvery;
        this.state = state;
        this.publisher = publisher;
        this.events = events;
        this.progress = progress;
    }

    /**
     * Publishes every complete, new step under the root, ascending. A step refused for bad input
     * (a symlink, an invalid file name) is warned about once and not retried until restart.
     *
     * @param failFast true to throw a Kafka or state-file failure; false to warn and stop this scan
     * @return true when nothing was skipped or refused
     * @throws CliException (exit 1) when the root cannot be listed, or with {@code failFast} on a failure
     */
    public boolean scanOnce(boolean failFast) {
        StepScanner.Scan scan;
        try {
            scan = StepScanner.scan(root, state.published());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot list " + root + ": " + e.getMessage(), e);
        }
        scan.skipped().forEach(progress::warn);
        boolean clean = scan.skipped().isEmpty();
        for (StepScanner.Step step : scan.ready()) {
            if (refused.contains(step.step())) {
                clean = false;
                continue;
            }
            try {
                publish(step);
            } catch (CliException e) {
                clean = false;
                if (e.exitCode() == CliException.USAGE) {
                    refused.add(step.step());
                    progress.warn("not publishing " + step.dir() + ": " + e.getMessage() + " (fix it and restart the watch)");
                } else if (failFast) {
                    throw e;
                } else {
                    progress.warn(e.getMessage() + " (retrying at the next scan)");
                    return false;
                }
            }
        }
        return clean;
    }

    /**
     * @return one line saying which step was published last (by this watch or an earlier one of the run) and which
     *         step it waits on: the in-progress directory's step if there is one, else the last step plus the
     *         capsule's {@code checkpointInterval} (in steps), else "the step after N"
     */
    public String status() {
        Long last = state.last();
        Long inProgress = StepScanner.inProgress(root);
        Long interval = ExperimentCapsule.checkpointInterval(root);
        String published = published();
        String waiting = inProgress != null && (last == null || inProgress > last) ? "step " + inProgress + " (in progress)"
                : last != null && interval != null ? "step " + (last + interval)
                : last != null ? "the step after " + last : "the first step";
        return published + "; waiting on " + waiting;
    }

    /** @return "nothing published yet" or "last published step N (M steps in all)" */
    public String published() {
        Long last = state.last();
        return last == null ? "nothing published yet"
                : "last published step " + last + " (" + Inputs.count(state.published().size(), "step") + " in all)";
    }

    private void publish(StepScanner.Step step) {
        CheckpointPublisher.Prepared prepared = publisher.prepare(step.dir(), experiment, run, step.step(), false,
                List.of(), false, keyEvery);
        boolean key = prepared.event().key();
        prepared.warnings().forEach(progress::warn);
        events.publish(prepared.event());
        state.record(step.step());
        progress.step("published " + prepared.event().assetId() + " from " + step.dir().getFileName()
                + " (" + Inputs.count(prepared.event().fileCount(), "file") + (key ? ", key" : "") + ")");
    }
}
