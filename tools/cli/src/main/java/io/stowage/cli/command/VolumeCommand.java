package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.ResourceUnits;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.output.Table;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage volume create|list|destroy|sweep}: temporary volumes on the configured provider. A volume is
 * destroyed only after the gate released everything on it; a denied release exits 3 and names what blocks it.
 */
@Command(name = "volume", mixinStandardHelpOptions = true, description = "Create, list and destroy provider volumes.",
        subcommands = {VolumeCommand.Create.class, VolumeCommand.List.class, VolumeCommand.Destroy.class,
                VolumeCommand.Sweep.class})
public final class VolumeCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    static ProviderClient client() {
        return new ProviderClient(Session.readFrom(StowageHome.fromEnvironment().session()).serviceUrl("provider-adapter"));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a volume (volume.created).")
    static final class Create implements Callable<Integer> {
        @Option(names = "--size", required = true, description = "Size, e.g. 500GB or 1TB (GB = 10^9 bytes).")
        String size;
        @Option(names = "--ttl", defaultValue = "0", description = "Time to live, e.g. 72h, 3d; 0 = none.")
        Duration ttl;
        @Option(names = "--purpose", defaultValue = "scratch", description = "What it is for, e.g. scratch.")
        String purpose;
        @Option(names = "--name", description = "Its name (default: <purpose>-<time>).")
        String name;
        @Option(names = "--cap-usd", description = "Money cap over its lifetime in US dollars.")
        BigDecimal capUsd;
        @Option(names = "--run", description = "The training run it serves.")
        String runId;
        @Option(names = "--json", description = "Print the volume as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("name", name != null ? name : purpose + "-" + Instant.now().getEpochSecond());
            request.put("purpose", purpose);
            request.put("sizeGb", ResourceUnits.gigabytes(size));
            request.put("ttlSeconds", ttl.getSeconds());
            request.put("capUsd", capUsd);
            request.put("runId", runId);
            JsonNode volume = client().createVolume(request);
            if (json) {
                JsonOut.print(volume);
            } else {
                System.out.printf("created %s %s (%d GB, %s) at %s%s%n", volume.path("provider").asText(),
                        volume.path("id").asText(), volume.path("sizeGb").asInt(), volume.path("purpose").asText(),
                        volume.path("path").asText(), volume.hasNonNull("expiresAt")
                                ? ", expires " + volume.path("expiresAt").asText() : "");
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List volumes, destroyed ones included.")
    static final class List implements Callable<Integer> {
        @Option(names = "--json", description = "Print the list as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            JsonNode volumes = client().volumes();
            if (json) {
                JsonOut.print(volumes);
                return 0;
            }
            Table table = new Table("ID", "PROVIDER", "NAME", "SIZE", "STATE", "EXPIRES", "PATH").rightAligned(3);
            java.util.List<String> blocked = new java.util.ArrayList<>();
            for (JsonNode v : volumes) {
                table.row(v.path("id").asText(), v.path("provider").asText(), v.path("name").asText(),
                        v.path("sizeGb").asInt() + " GB", v.path("state").asText(), v.path("expiresAt").asText("-"),
                        v.path("path").asText());
                v.path("blockers").forEach(b -> blocked.add(v.path("id").asText() + " blocked by " + b.asText()));
            }
            table.print(System.out);
            blocked.forEach(System.out::println);
            return 0;
        }
    }

    @Command(name = "destroy", mixinStandardHelpOptions = true,
            description = "Release the volume's directory through the gate, then destroy it (exit 3 when blocked).")
    static final class Destroy implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "The volume id.")
        String id;
        @Option(names = "--dry-run", description = "Show what would be released and destroyed; change nothing.")
        boolean dryRun;
        @Option(names = "--wait", defaultValue = "10m", description = "How long to wait for the gate, e.g. 10m.")
        Duration wait;
        @Option(names = "--json", description = "Print the volume as one line of JSON.")
        boolean json;

        @Override
        public Integer call() throws InterruptedException {
            ProviderClient client = client();
            JsonNode volume = client.volume(id).orElseThrow(() -> new CliException(CliException.USAGE, "unknown volume " + id));
            if (dryRun) {
                if (json) {
                    JsonOut.print(volume);
                } else {
                    System.out.printf("would release %s through the gate, then destroy %s volume %s (%d GB); nothing"
                                    + " changed%n", volume.path("path").asText(), volume.path("provider").asText(), id,
                            volume.path("sizeGb").asInt());
                }
                return 0;
            }
            Progress progress = new Progress(System.err, json);
            JsonNode now = client.releaseVolume(id);
            Instant deadline = Instant.now().plus(wait);
            while ("RELEASING".equals(now.path("state").asText()) && Instant.now().isBefore(deadline)) {
                progress.detail("waiting for the gate on " + now.path("path").asText());
                Thread.sleep(Duration.ofMillis(500).toMillis());
                now = client.volume(id).orElseThrow();
            }
            String state = now.path("state").asText();
            if (json) {
                JsonOut.print(now);
            } else if ("DESTROYED".equals(state)) {
                System.out.println("destroyed " + id);
            } else {
                System.out.println(state.toLowerCase(java.util.Locale.ROOT) + " " + id + ": nothing destroyed");
                now.path("blockers").forEach(b -> System.out.println("  blocked by " + b.asText()));
            }
            return switch (state) {
                case "DESTROYED" -> 0;
                case "BLOCKED" -> CliException.DENIED;
                default -> CliException.FAILED;
            };
        }
    }

    @Command(name = "sweep", mixinStandardHelpOptions = true,
            description = "Check every volume and pod against its time to live and caps now (or --at, for drills).")
    static final class Sweep implements Callable<Integer> {
        @Option(names = "--at", description = "ISO-8601 instant to sweep at (the adapter must allow it).")
        String at;
        @Option(names = "--json", description = "Print what was done as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            JsonNode done = client().sweep(at);
            if (json) {
                JsonOut.print(done);
            } else {
                System.out.println("swept at " + done.path("at").asText());
                done.path("actions").forEach(a -> System.out.println("  " + a.asText()));
            }
            return 0;
        }
    }
}
