package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.checkpoint.StepScanner;
import io.stowage.cli.checkpoint.StepWatcher;
import io.stowage.cli.checkpoint.WatchState;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.AssetIds;
import io.stowage.events.InvalidEventException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;

/**
 * {@code stowage watch ROOT}: a sidecar that scans a run directory every interval and publishes each
 * complete, new step directory exactly as {@code checkpoint publish --no-wait} does ({@link StepWatcher});
 * the {@link WatchState} makes a restarted watch skip what it already published. Started before the run directory
 * exists (as a pod's sidecar starts beside the trainer), it waits for the directory; when the directory is removed it
 * waits for it again; it outlives a trainer that is killed and restarted, and says on standard error which step it
 * published last and which it waits on, each time that changes.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = {"Publish each step directory under ROOT the moment it is complete: a directory named step-N"
                + " (renamed into place from a temporary name; names starting with '.' are in progress) or a directory"
                + " holding the marker file " + StepScanner.MARKER + " (step = the number its name ends with).",
                "Published steps are remembered in $STOWAGE_HOME/state/watch-<E>-<R>.json. Does not wait for upload"
                        + " and verification: the services do that; 'stowage status' shows it.",
                "Started before ROOT exists, it waits for ROOT to appear (--once does not wait: exit 2)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:--once scan done, every complete step published", "1:a step could not be published, or Kafka failed",
                "2:bad input"})
public final class WatchCommand implements Callable<Integer> {
    @Parameters(paramLabel = "ROOT", description = "The run directory that receives the step directories.")
    Path root;
    @Option(names = "--experiment", required = true, description = "Experiment name.")
    String experiment;
    @Option(names = "--run", required = true, description = "Run name.")
    String run;
    @Option(names = "--interval", defaultValue = "10", paramLabel = "SECONDS", description = "Seconds between scans (default ${DEFAULT-VALUE}).")
    long intervalSeconds;
    @Option(names = "--once", description = "Scan once and exit (for scripts and tests).")
    boolean once;
    @Option(names = "--key-every", paramLabel = "N", description = "Every step divisible by N is a key checkpoint (second copy).")
    Long keyEvery;

    @Override
    public Integer call() throws InterruptedException {
        try {
            AssetIds.checkpoint(experiment, run, 0);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        if (intervalSeconds < 1 || (keyEvery != null && keyEvery < 1)) {
            throw new CliException(CliException.USAGE, "--interval and --key-every must be at least 1");
        }
        Path dir = root.toAbsolutePath().normalize();
        Progress progress = new Progress(System.err, false);
        if (once) {
            Inputs.requireReadableDirectory("watch root", dir);
        }
        StowageHome home = StowageHome.fromEnvironment();
        Session session = Session.readFrom(home.session()); // before waiting: a stack that is not up is said at once
        if (!once) {
            awaitRoot(dir, progress, "to appear (the trainer creates it)");
        }
        WatchState state = WatchState.load(WatchState.fileFor(home.root().resolve("state"), experiment, run), experiment, run);
        CheckpointPublisher publisher = new CheckpointPublisher(Path.of(session.stagingDir()), Clock.systemUTC());
        try (EventPublisher events = new EventPublisher(session.kafkaClient())) {
            StepWatcher watcher = new StepWatcher(dir, experiment, run, keyEvery, state, publisher, events, progress);
            progress.step("watching " + dir + " for " + experiment + "/" + run + " (" + state.published().size() + " steps published before)");
            String said = null;
            while (true) {
                if (!once && !Files.isDirectory(dir)) {
                    awaitRoot(dir, progress, "to appear again (it was removed)");
                }
                boolean clean = scan(watcher, dir);
                String status = watcher.status();
                if (!status.equals(said)) {
                    progress.step(status);
                    said = status;
                }
                if (once) {
                    return clean ? 0 : CliException.FAILED;
                }
                Thread.sleep(intervalSeconds * 1000);
            }
        }
    }

    private boolean scan(StepWatcher watcher, Path dir) {
        try {
            return watcher.scanOnce(once);
        } catch (CliException e) {
            if (once || Files.isDirectory(dir)) {
                throw e;
            }
            return false; // removed while it was listed: the next round waits for it again
        }
    }

    /** Waits, one check per interval, until {@code dir} is a directory; says so once on standard error. */
    private void awaitRoot(Path dir, Progress progress, String why) throws InterruptedException {
        boolean said = false;
        while (!Files.isDirectory(dir)) {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new CliException(CliException.USAGE, "watch root " + dir + " is not a directory");
            }
            if (!said) {
                progress.step("waiting for " + dir + " " + why + "; looking every " + intervalSeconds + " s");
                said = true;
            }
            Thread.sleep(intervalSeconds * 1000);
        }
    }
}
