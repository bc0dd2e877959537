package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.run.LedgerRunSteps;
import io.stowage.cli.run.ProviderRunResources;
import io.stowage.cli.run.RunAccountingView;
import io.stowage.cli.run.RunStopper;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.cli.output.JsonOut;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage run cap RUN --cap-usd 50 --max-time 72h --cap-gpu-hours 8}: hard caps on a training run (the volumes and pods created
 * with {@code --run RUN}); at the cap the run is asked to checkpoint, then stopped. {@code stowage run list}: the runs
 * the ledger accounts, with their verdict, and the caps.
 * {@code stowage run stop RUN_DIR}: the safe stop by the stop contract ({@link RunStopper}).
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Hard caps on training runs.",
        subcommands = {RunCommand.Cap.class, RunCommand.List.class, RunCommand.Stop.class})
public final class RunCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    @Command(name = "cap", mixinStandardHelpOptions = true, description = "Set a run's money, wall-time and/or GPU-hour cap.")
    static final class Cap implements Callable<Integer> {
        @Parameters(paramLabel = "RUN", description = "The run id given to volume/pod create --run.")
        String runId;
        @Option(names = "--cap-usd", description = "Money cap over the run's volumes and pods, US dollars.")
        BigDecimal capUsd;
        @Option(names = "--max-time", defaultValue = "0", description = "Wall-time cap from the run's first resource, e.g. 72h.")
        Duration maxTime;
        @Option(names = "--cap-gpu-hours", paramLabel = "N", description = "GPU-hour cap: the sum over the run's pods of their"
                + " GPU count (pod create --gpu-count) times the hours they lived; a pod with no GPU count adds 0.")
        BigDecimal capGpuHours;
        @Option(names = "--json", description = "Print the cap as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Map<String, Object> cap = new LinkedHashMap<>();
            cap.put("capUsd", capUsd);
            cap.put("maxSeconds", maxTime.getSeconds());
            cap.put("capGpuHours", capGpuHours);
            JsonNode set = VolumeCommand.client().capRun(runId, cap);
            if (json) {
                JsonOut.print(set);
            } else {
                System.out.printf("run %s capped at %s USD, %s s, %s GPU hours%n", runId, set.path("capUsd").asText("-"),
                        set.path("maxSeconds").asText(), set.path("capGpuHours").asText("-"));
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List runs with their verdict (from the ledger) and run caps.")
    static final class List implements Callable<Integer> {
        @Option(names = "--json", description = "Print {\"runs\":[report…],\"caps\":[cap…]} as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            JsonNode accounted = RunAccountingView.all(session.serviceUrl("ledger"));
            JsonNode runs = VolumeCommand.client().runs();
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("runs", accounted);
                out.put("caps", runs);
                JsonOut.print(out);
                return 0;
            }
            if (accounted.isEmpty()) {
                System.out.println("no training runs in the ledger (a trainer's run file, read by `stowage watch`, records them)");
            }
            for (JsonNode r : accounted) {
                System.out.println(RunAccountingView.line(r));
            }
            if (runs.isEmpty()) {
                System.out.println("no runs with a cost cap (set one with `stowage run cap RUN --cap-usd N`)");
            }
            for (JsonNode r : runs) {
                System.out.printf("cap %-26s %s USD, %s s, %s GPU hours; checkpoint requested %s; stopped %s%n",
                        r.path("runId").asText(), r.path("capUsd").asText("-"), r.path("maxSeconds").asText(),
                        r.path("capGpuHours").asText("-"), r.path("checkpointRequestedAt").asText("-"),
                        r.path("triggeredAt").asText("-"));
            }
            return 0;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {"Stop a run safely: write the stop request into RUN_DIR (and send SIGUSR1 to --trainer-pid),"
                    + " wait within --grace for the trainer's answer and for that step to be published (by the run's"
                    + " 'stowage watch') and verified, then stop the trainer, terminate the run's pods and release its"
                    + " volumes through the gate. A trainer that does not answer in time is stopped anyway; the alert"
                    + " names the last verified step (docs/runs.md)."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the answered step is verified and the run is stopped",
                    "1:stopped without a verified answer (the alert says the last verified step)", "2:bad input"})
    static final class Stop implements Callable<Integer> {
        @Parameters(paramLabel = "RUN_DIR", description = "The run directory the trainer writes its step directories into.")
        Path runDir;
        @Option(names = "--experiment", required = true, description = "Experiment name of the run's checkpoints.")
        String experiment;
        @Option(names = "--run", required = true, description = "Run name of the run's checkpoints.")
        String run;
        @Option(names = "--resources", paramLabel = "RUN_ID", description = "The run id its pods and volumes were created with (default: --run).")
        String resources;
        @Option(names = "--grace", defaultValue = "10m", description = "Time for the answer and its verification (default ${DEFAULT-VALUE}).")
        Duration grace;
        @Option(names = "--trainer-pid", paramLabel = "PID", description = "The trainer's process id: signalled (SIGUSR1), and stopped after the grace.")
        Long trainerPid;
        @Option(names = "--reason", defaultValue = "cap-reached", description = "Why, written into the request (default ${DEFAULT-VALUE}).")
        String reason;
        @Option(names = "--json", description = "Print the outcome as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            Path dir = runDir.toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new CliException(CliException.USAGE, "run directory " + dir + " does not exist");
            }
            Duration wait = grace;
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
            Progress progress = new Progress(System.err, false);
            RunStopper.Outcome outcome;
            try (PrimaryStore store = new PrimaryStore(session.stack())) {
                RunStopper.Steps steps = new LedgerRunSteps(ledger, store, experiment, run);
                outcome = new RunStopper(steps, new ProviderRunResources(VolumeCommand.client(),
                        resources == null ? run : resources, Duration.ofMinutes(2)), Clock.systemUTC(), progress::step)
                        .stop(dir, reason, wait, trainerPid);
            }
            if (json) {
                JsonOut.print(outcome);
            } else {
                System.out.println(outcome.verified() ? "stopped " + experiment + "/" + run + " at verified step " + outcome.answeredStep()
                        : "stopped " + experiment + "/" + run + " without a verified answer");
                System.out.println("  trainer: " + outcome.trainer());
                outcome.pods().forEach(p -> System.out.println("  pod " + p));
                outcome.volumes().forEach(v -> System.out.println("  volume " + v));
            }
            if (outcome.alert() != null) {
                progress.warn("alert: " + outcome.alert());
            }
            return outcome.verified() ? 0 : CliException.FAILED;
        }
    }
}
