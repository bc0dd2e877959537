package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.checkpoint.StepScanner;
import io.stowage.cli.checkpoint.StepWatcher;
import io.stowage.cli.checkpoint.WatchState;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.run.LedgerRunSteps;
import io.stowage.cli.run.ProviderRunResources;
import io.stowage.cli.run.RunFile;
import io.stowage.cli.run.RunStopper;
import io.stowage.cli.run.RunSupervisor;
import io.stowage.cli.store.PrimaryStore;
import com.fasterxml.jackson.databind.JsonNode;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.concurrent.Callable;

/**
 * {@code stowage watch ROOT}: a sidecar that scans a run directory every interval and publishes each
 * complete, new step directory exactly as {@code checkpoint publish --no-wait} does ({@link StepWatcher});
 * the {@link WatchState} makes a restarted watch skip what it already published. Started before the run directory
 * exists (as a pod's sidecar starts beside the trainer), it waits for the directory; when the directory is removed it
 * waits for it again; it outlives a trainer that is killed and restarted, and says on standard error which step it
 * published last and which it waits on, each time that changes. It also publishes the trainer's run file as run
 * events and, with {@code --resources}, stops the run safely at its cap and tears a finished run down
 * ({@link RunSupervisor}); it then exits.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = {"Publish each step directory under ROOT the moment it is complete: a directory named step-N"
                + " (renamed into place from a temporary name; names starting with '.' are in progress) or a directory"
                + " holding the marker file " + StepScanner.MARKER + " (step = the number its name ends with).",
                "Published steps are remembered in $STOWAGE_HOME/state/watch-<E>-<R>.json. Does not wait for upload"
                        + " and verification: the services do that; 'stowage status' shows it.",
                "Started before ROOT exists, it waits for ROOT to appear (--once does not wait: exit 2).",
                "Publishes the trainer's run file ROOT/" + RunFile.NAME + " as run.started/progress/finished; with"
                        + " --resources it stops the run at its cap and tears it down after it finished, then exits"
                        + " (docs/runs.md)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:--once scan done, every complete step published; or the run stopped at a verified step / torn down",
                "1:a step could not be published, or Kafka failed; or the run was stopped or not torn down with an alert",
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
    @Option(names = "--resources", paramLabel = "RUN_ID", description = {"The run id its pods and volumes were created with"
            + " (pod/volume create --run). Then, when the provider-adapter asks the run to checkpoint at its cap, the"
            + " watch stops it safely (as 'run stop'), and when the trainer reports the run completed or stopped, the"
            + " watch terminates its pods and releases its volumes through the gate once the last step is verified."})
    String resources;
    @Option(names = "--stop-grace", defaultValue = "10m", description = "With --resources: time for the trainer's answer at a cap and for the last step's verification (default ${DEFAULT-VALUE}).")
    Duration stopGrace;
    @Option(names = "--trainer-pid", paramLabel = "PID", description = "With --resources: the trainer's process id, signalled (SIGUSR1) at a cap and stopped after the grace.")
    Long trainerPid;

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
        try (EventPublisher events = new EventPublisher(session.kafkaClient());
             PrimaryStore store = new PrimaryStore(session.stack())) {
            StepWatcher watcher = new StepWatcher(dir, experiment, run, keyEvery, state, publisher, events, progress);
            RunSupervisor supervisor = supervisor(session, dir, events, store, progress);
            progress.step("watching " + dir + " for " + experiment + "/" + run + " (" + state.published().size() + " steps published before)");
            String said = null;
            while (true) {
                if (!once && !Files.isDirectory(dir)) {
                    awaitRoot(dir, progress, "to appear again (it was removed)");
                }
                boolean clean = scan(watcher, dir);
                // --once publishes the run file's lines and starts no stop or teardown it could not see to its end
                Optional<String> over = once ? supervisor.readOnce() : Optional.empty();
                String status = over.map(line -> watcher.published() + "; " + line).orElseGet(watcher::status);
                if (!status.equals(said)) {
                    progress.step(status);
                    said = status;
                }
                if (once) {
                    return clean ? 0 : CliException.FAILED;
                }
                Optional<Integer> ended = supervisor.tick();
                if (ended.isPresent()) {
                    scan(watcher, dir);
                    progress.step(watcher.status() + "; the run is over, the watch ends");
                    return ended.get();
                }
                Thread.sleep(intervalSeconds * 1000);
            }
        }
    }

    /** The run file's events, and with --resources the stop at the cap and the teardown after the run. */
    private RunSupervisor supervisor(Session session, Path dir, EventPublisher events, PrimaryStore store, Progress progress) {
        Duration grace = stopGrace;
        ProviderClient provider = new ProviderClient(session.serviceUrl("provider-adapter"));
        Supplier<Optional<RunSupervisor.CapRequest>> cap = resources == null ? Optional::empty : () -> capRequested(provider, progress);
        RunStopper.Resources held = resources == null ? new NoResources()
                : new ProviderRunResources(provider, resources, Duration.ofMinutes(2));
        return new RunSupervisor(dir, new RunFile(dir, experiment, run, resources), events::publish, cap,
                new LedgerRunSteps(new LedgerClient(session.serviceUrl("ledger")), store, experiment, run), held, grace,
                resources == null ? null : trainerPid, Clock.systemUTC(), progress::step);
    }

    /** @return the provider-adapter's checkpoint request for the run at its cap (or its stop), empty when none */
    private Optional<RunSupervisor.CapRequest> capRequested(ProviderClient provider, Progress progress) {
        try {
            for (JsonNode cap : provider.runs()) {
                if (resources.equals(cap.path("runId").asText())) {
                    Instant stopped = cap.hasNonNull("triggeredAt") ? Instant.parse(cap.path("triggeredAt").asText()) : null;
                    Instant asked = cap.hasNonNull("checkpointRequestedAt")
                            ? Instant.parse(cap.path("checkpointRequestedAt").asText()) : stopped;
                    return asked == null ? Optional.empty() : Optional.of(new RunSupervisor.CapRequest(asked, stopped));
                }
            }
        } catch (RuntimeException e) {
            progress.warn("could not read the run caps from the provider-adapter: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Without --resources the watch knows no pod or volume of the run and tears nothing down. */
    private static final class NoResources implements RunStopper.Resources {
        @Override
        public List<String> terminatePods() {
            return List.of();
        }

        @Override
        public List<String> releaseVolumes() {
            return List.of();
        }

        @Override
        public boolean held() {
            return false;
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
