package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.ResourceUnits;
import io.stowage.cli.output.JsonOut;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage run cap RUN --cap-usd 50 --max-time 72h} and {@code stowage run list}: hard caps on a training run
 * (the volumes and pods created with {@code --run RUN}). At the cap the run is asked to checkpoint, then stopped.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Hard caps on training runs.",
        subcommands = {RunCommand.Cap.class, RunCommand.List.class})
public final class RunCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    @Command(name = "cap", mixinStandardHelpOptions = true, description = "Set a run's money and/or wall-time cap.")
    static final class Cap implements Callable<Integer> {
        @Parameters(paramLabel = "RUN", description = "The run id given to volume/pod create --run.")
        String runId;
        @Option(names = "--cap-usd", description = "Money cap over the run's volumes and pods, US dollars.")
        BigDecimal capUsd;
        @Option(names = "--max-time", defaultValue = "0", description = "Wall-time cap from the run's first resource, e.g. 72h.")
        String maxTime;
        @Option(names = "--json", description = "Print the cap as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Map<String, Object> cap = new LinkedHashMap<>();
            cap.put("capUsd", capUsd);
            cap.put("maxSeconds", ResourceUnits.duration(maxTime).getSeconds());
            JsonNode set = VolumeCommand.client().capRun(runId, cap);
            if (json) {
                JsonOut.print(set);
            } else {
                System.out.printf("run %s capped at %s USD, %s s%n", runId, set.path("capUsd").asText("-"),
                        set.path("maxSeconds").asText());
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List run caps.")
    static final class List implements Callable<Integer> {
        @Option(names = "--json", description = "Print the caps as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            JsonNode runs = VolumeCommand.client().runs();
            if (json) {
                JsonOut.print(runs);
                return 0;
            }
            if (runs.isEmpty()) {
                System.out.println("no runs with a cost cap (set one with `stowage run cap RUN --cap-usd N`)");
            }
            for (JsonNode r : runs) {
                System.out.printf("%-30s cap %s USD, %s s; checkpoint requested %s; stopped %s%n",
                        r.path("runId").asText(), r.path("capUsd").asText("-"), r.path("maxSeconds").asText(),
                        r.path("checkpointRequestedAt").asText("-"), r.path("triggeredAt").asText("-"));
            }
            return 0;
        }
    }
}
