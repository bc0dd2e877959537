package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code stowage pod create|list|terminate}: pods on the configured provider (pod.created, pod.terminated). */
@Command(name = "pod", mixinStandardHelpOptions = true, description = "Create, list and terminate provider pods.",
        subcommands = {PodCommand.Create.class, PodCommand.List.class, PodCommand.Terminate.class})
public final class PodCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a pod (pod.created).")
    static final class Create implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "Its name.")
        String name;
        @Option(names = "--image", description = "Container image.")
        String image;
        @Option(names = "--gpu-type", defaultValue = "none", description = "GPU type id, e.g. 'NVIDIA A40'; none = CPU pod.")
        String gpuType;
        @Option(names = "--gpu-count", defaultValue = "0", description = "GPUs.")
        int gpuCount;
        @Option(names = "--price-per-hour", defaultValue = "0", description = "US dollars per hour (local provider; RunPod reports its own).")
        BigDecimal pricePerHour;
        @Option(names = "--volume", description = "Network volume id to mount at /workspace.")
        String volumeId;
        @Option(names = "--ttl", defaultValue = "0", description = "Wall-time cap, e.g. 72h; 0 = none.")
        java.time.Duration ttl;
        @Option(names = "--cap-usd", description = "Money cap in US dollars.")
        BigDecimal capUsd;
        @Option(names = "--run", description = "The training run it serves.")
        String runId;
        @Option(names = "--json", description = "Print the pod as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("name", name);
            request.put("imageName", image);
            request.put("gpuTypeId", gpuType);
            request.put("gpuCount", gpuCount);
            request.put("costPerHourUsd", pricePerHour);
            request.put("volumeId", volumeId);
            request.put("ttlSeconds", ttl.getSeconds());
            request.put("capUsd", capUsd);
            request.put("runId", runId);
            JsonNode pod = VolumeCommand.client().createPod(request);
            if (json) {
                JsonOut.print(pod);
            } else {
                System.out.printf("created %s pod %s (%s x%d, %s USD/h)%n", pod.path("provider").asText(),
                        pod.path("id").asText(), pod.path("gpuTypeId").asText(), pod.path("gpuCount").asInt(),
                        pod.path("costPerHourUsd").asText());
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List pods, terminated ones included.")
    static final class List implements Callable<Integer> {
        @Option(names = "--json", description = "Print the list as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            JsonNode pods = VolumeCommand.client().pods();
            if (json) {
                JsonOut.print(pods);
                return 0;
            }
            Table table = new Table("ID", "PROVIDER", "NAME", "USD/H", "TERMINATED", "REASON").rightAligned(3);
            for (JsonNode p : pods) {
                table.row(p.path("id").asText(), p.path("provider").asText(), p.path("name").asText(),
                        p.path("costPerHourUsd").asText(), p.path("terminatedAt").asText("-"), p.path("reason").asText("-"));
            }
            table.print(System.out);
            return 0;
        }
    }

    @Command(name = "terminate", mixinStandardHelpOptions = true, description = "Terminate a pod (pod.terminated); a no-op when already terminated.")
    static final class Terminate implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "The pod id.")
        String id;
        @Option(names = "--dry-run", description = "Show what would be terminated; change nothing.")
        boolean dryRun;
        @Option(names = "--json", description = "Print the pod as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            ProviderClient client = VolumeCommand.client();
            if (dryRun) {
                JsonNode pod = null;
                for (JsonNode p : client.pods()) {
                    pod = id.equals(p.path("id").asText()) ? p : pod;
                }
                if (pod == null) {
                    throw new CliException(CliException.USAGE, "unknown pod " + id);
                }
                if (json) {
                    JsonOut.print(pod);
                } else {
                    System.out.printf("would terminate %s pod %s (%s USD/h); nothing changed%n",
                            pod.path("provider").asText(), id, pod.path("costPerHourUsd").asText());
                }
                return 0;
            }
            JsonNode pod = client.terminatePod(id);
            if (json) {
                JsonOut.print(pod);
            } else {
                System.out.println("terminated " + id + " at " + pod.path("terminatedAt").asText());
            }
            return 0;
        }
    }
}
