package io.stowage.bench.e2e;

import io.stowage.bench.ExternalCommand;
import io.stowage.bench.MachineInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The timed flows of {@link EndToEndBenchmark}: each runs the reference tools first, then the {@code stowage}
 * command, on the same directory and the same S3 server, and returns both figures.
 */
final class Flows {
    private final Path repo;
    private final StowageUp up;
    private final String aws;
    private final String rclone;
    private final Path work;

    Flows(Path repo, StowageUp up, String aws, String rclone, Path work) {
        this.repo = repo;
        this.up = up;
        this.aws = aws;
        this.rclone = rclone;
        this.work = work;
    }

    /**
     * {@code stowage checkpoint publish DIR} (which waits until every file is uploaded, HEAD-checked and re-read in
     * full in the ledger) against {@code aws s3 cp} up and down through {@code sha256sum}.
     *
     * @param step  the step number the directory is published as
     * @param bytes the bytes of the files in {@code dir} (without provenance.json)
     */
    Figure publish(String flow, Path dir, long step, long bytes) throws Exception {
        String load = MachineInfo.loadAverage();
        String prefix = "s3://" + up.primaryBucket() + "/reference/" + dir.getFileName();
        Path down = Files.createDirectories(work.resolve("down-" + step));
        String script = dir.toFile().list().length <= 2
                ? aws + " --endpoint-url " + up.s3Endpoint() + " s3 cp --only-show-errors " + largest(dir) + " " + prefix + "/f"
                        + " && " + aws + " --endpoint-url " + up.s3Endpoint() + " s3 cp --only-show-errors " + prefix + "/f - | sha256sum"
                : aws + " --endpoint-url " + up.s3Endpoint() + " s3 cp --only-show-errors --recursive " + dir + " " + prefix
                        + " && " + aws + " --endpoint-url " + up.s3Endpoint() + " s3 cp --only-show-errors --recursive " + prefix
                        + " " + down + " && cd " + down + " && find . -type f -print0 | xargs -0 sha256sum > /dev/null";
        Map<String, Double> serverBefore = up.cpuByProcess();
        long t = System.nanoTime();
        ExternalCommand.Timed reference = ExternalCommand.runTimed(List.of("bash", "-c", script), up.awsEnvironment(),
                EndToEndBenchmark.none(), work);
        double referenceSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: reference: CPU s of the tools %.2f; of the stack's servers %s%n", flow,
                reference.cpuSeconds(), serverCpu(serverBefore, up.cpuByProcess()));
        EndToEndBenchmark.deleteTree(down);
        double services = up.servicesCpuSeconds();
        Map<String, Double> byProcess = up.cpuByProcess();
        t = System.nanoTime();
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage("checkpoint", "publish", dir.toString(),
                "--experiment", "bench", "--run", "run-1", "--step", String.valueOf(step), "--json"), up.cliEnvironment(),
                EndToEndBenchmark.none(), work);
        double stowageSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: CPU s by process: cli %.2f, %s%n", flow, stowage.cpuSeconds(),
                StowageUp.cpuDelta(byProcess, up.cpuByProcess()));
        requireVerified(stowage.output());
        return new Figure(flow, bytes, stowageSeconds, referenceSeconds,
                stowage.cpuSeconds() + up.servicesCpuSeconds() - services, reference.cpuSeconds(), 1.5, load);
    }

    /**
     * {@code stowage checkpoint publish DIR} alone, untimed by a reference: prepares a verified step for another flow.
     *
     * @return the seconds it took, command to verified
     * @throws IllegalStateException when the command prints no published event
     */
    double publishUntimed(Path dir, long step) throws Exception {
        long t = System.nanoTime();
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage("checkpoint", "publish", dir.toString(),
                "--experiment", "bench", "--run", "run-1", "--step", String.valueOf(step), "--json"), up.cliEnvironment(),
                EndToEndBenchmark.none(), work);
        requireVerified(stowage.output());
        return seconds(t);
    }

    /**
     * {@code stowage release DIR} (request, gate, deletion by the provider-adapter) against {@code sha256sum} of every
     * file; the directory must be gone afterwards.
     */
    Figure release(String flow, Path dir, long bytes) throws Exception {
        String load = MachineInfo.loadAverage();
        Map<String, Double> serverBefore = up.cpuByProcess();
        long t = System.nanoTime();
        ExternalCommand.Timed reference = ExternalCommand.runTimed(List.of("bash", "-c",
                "cd " + dir + " && find . -type f -print0 | xargs -0 sha256sum > /dev/null"), Map.of(), EndToEndBenchmark.none(), work);
        double referenceSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: reference: CPU s of the tools %.2f; of the stack's servers %s%n", flow,
                reference.cpuSeconds(), serverCpu(serverBefore, up.cpuByProcess()));
        double services = up.servicesCpuSeconds();
        Map<String, Double> byProcess = up.cpuByProcess();
        t = System.nanoTime();
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage("release", dir.toString(), "--json"),
                up.cliEnvironment(), EndToEndBenchmark.none(), work);
        double stowageSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: CPU s by process: cli %.2f, %s%n", flow, stowage.cpuSeconds(),
                StowageUp.cpuDelta(byProcess, up.cpuByProcess()));
        if (Files.exists(dir)) {
            throw new IllegalStateException("release exited 0 but " + dir + " is still there: " + stowage.output());
        }
        return new Figure(flow, bytes, stowageSeconds, referenceSeconds,
                stowage.cpuSeconds() + up.servicesCpuSeconds() - services, reference.cpuSeconds(), 1.0, load);
    }

    /**
     * {@code stowage dataset shard DIR} (which waits until every shard, member manifest and the dataset manifest is
     * uploaded and verified in the ledger) against what a user would script: {@code sha256sum} of every member,
     * {@code tar | zstd -3 -T0 | tee ARCHIVE | sha256sum}, {@code aws s3 cp} of the archive up and
     * {@code aws s3 cp - | sha256sum} down.
     *
     * @param shardBytes the target shard size given as {@code --shard-bytes}
     * @param bytes      the bytes of the files in {@code dir}
     * @return the figure and the number of shards sealed; the command's JSON must name a newly sealed revision
     */
    Sharded shard(String flow, Path dir, String name, String revision, long shardBytes, long bytes) throws Exception {
        String load = MachineInfo.loadAverage();
        Path archive = work.resolve("reference-shard.tar.zst");
        String target = "s3://" + up.primaryBucket() + "/reference/" + name + "-" + revision + ".tar.zst";
        String awsCall = aws + " --endpoint-url " + up.s3Endpoint() + " s3 cp --only-show-errors ";
        String script = "cd " + dir + " && find . -type f -print0 | xargs -0 sha256sum > /dev/null"
                + " && tar -cf - . | zstd -3 -T0 -q | tee " + archive + " | sha256sum > /dev/null"
                + " && " + awsCall + archive + " " + target
                + " && " + awsCall + target + " - | sha256sum > /dev/null";
        Map<String, Double> serverBefore = up.cpuByProcess();
        long t = System.nanoTime();
        ExternalCommand.Timed reference = ExternalCommand.runTimed(List.of("bash", "-o", "pipefail", "-c", script),
                up.awsEnvironment(), EndToEndBenchmark.none(), work);
        double referenceSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: reference: CPU s of the tools %.2f; of the stack's servers %s%n", flow,
                reference.cpuSeconds(), serverCpu(serverBefore, up.cpuByProcess()));
        Files.deleteIfExists(archive);
        double services = up.servicesCpuSeconds();
        Map<String, Double> byProcess = up.cpuByProcess();
        t = System.nanoTime();
        Shard stowage = shardCommand(dir, name, revision, shardBytes);
        double stowageSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: CPU s by process: cli %.2f, %s%n", flow, stowage.run().cpuSeconds(),
                StowageUp.cpuDelta(byProcess, up.cpuByProcess()));
        return new Sharded(new Figure(flow, bytes, stowageSeconds, referenceSeconds,
                stowage.run().cpuSeconds() + up.servicesCpuSeconds() - services, reference.cpuSeconds(), 2.0, load),
                stowage.shards());
    }

    /**
     * {@code stowage dataset shard DIR} alone, untimed: prepares a revision for another flow.
     *
     * @return how many shards the newly sealed revision holds
     * @throws IllegalStateException when the command does not print a newly sealed revision
     */
    int shardUntimed(Path dir, String name, String revision, long shardBytes) throws Exception {
        return shardCommand(dir, name, revision, shardBytes).shards();
    }

    /** One run of {@code stowage dataset shard} and the number of shards it sealed. */
    private record Shard(ExternalCommand.Timed run, int shards) {
    }

    private Shard shardCommand(Path dir, String name, String revision, long shardBytes) throws Exception {
        List<String> command = new ArrayList<>(List.of("dataset", "shard", dir.toString(), "--name", name,
                "--revision", revision, "--shard-bytes", String.valueOf(shardBytes), "--license", "CC-BY-SA-3.0",
                "--source", "asterisk-core-sounds-en-wav and random bytes", "--json"));
        if (shardBytes < (1L << 30)) {
            command.add("--allow-small-shards");
        }
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage(command.toArray(String[]::new)),
                up.cliEnvironment(), EndToEndBenchmark.none(), work);
        if (!stowage.output().contains("\"manifestSha256\"") || stowage.output().contains("\"alreadySealed\":true")) {
            throw new IllegalStateException("dataset shard printed no newly sealed revision: " + stowage.output());
        }
        java.util.regex.Matcher count = java.util.regex.Pattern.compile("\"shards\":(\\d+)").matcher(stowage.output());
        if (!count.find()) {
            throw new IllegalStateException("dataset shard printed no shard count: " + stowage.output());
        }
        return new Shard(stowage, Integer.parseInt(count.group(1)));
    }

    /** The figure of a {@link #shard} flow and how many shards the revision holds. */
    record Sharded(Figure figure, int shards) {
    }

    /**
     * {@code stowage dataset fetch} of a sealed revision into an empty cache (every shard's SHA-256 checked while it
     * streams, fsynced, renamed into place) against {@code rclone copy} of the revision's {@code shards/} prefix from
     * the same server (rclone's defaults); also prints rclone followed by {@code sync} of the copies, durable as
     * Stowage's are.
     *
     * @param shards the number of shards the revision holds (both tools must bring exactly these)
     * @return the figure, per GiB of the shards' bytes
     */
    Figure fetch(String flow, String name, String revision, int shards) throws Exception {
        String load = MachineInfo.loadAverage();
        Path copy = Files.createDirectories(work.resolve("rclone-" + name));
        String remote = "s3:" + up.primaryBucket() + "/datasets/" + name + "/" + revision + "/shards/";
        Map<String, Double> serverBefore = up.cpuByProcess();
        long t = System.nanoTime();
        ExternalCommand.Timed reference = ExternalCommand.runTimed(List.of(rclone, "copy", "-q", remote,
                copy.toString()), up.rcloneEnvironment(work), java.util.Set.of("AWS_CA_BUNDLE"), work);
        double referenceSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: reference: CPU s of the tools %.2f; of the stack's servers %s%n", flow,
                reference.cpuSeconds(), serverCpu(serverBefore, up.cpuByProcess()));
        List<String> copied;
        try (Stream<Path> files = Files.list(copy)) {
            copied = files.filter(f -> f.getFileName().toString().endsWith(".tar.zst")).map(Path::toString).toList();
        }
        List<String> sync = new ArrayList<>(List.of("sync"));
        sync.addAll(copied);
        ExternalCommand.run(sync, Map.of(), EndToEndBenchmark.none(), work);
        double syncedSeconds = seconds(t);
        long bytes = 0;
        for (String f : copied) {
            bytes += Files.size(Path.of(f));
        }
        EndToEndBenchmark.deleteTree(copy);
        if (copied.size() != shards) {
            throw new IllegalStateException("rclone copied " + copied.size() + " shards of " + remote + ", not " + shards);
        }
        Path cache = work.resolve("fetch-" + name);
        double services = up.servicesCpuSeconds();
        Map<String, Double> byProcess = up.cpuByProcess();
        t = System.nanoTime();
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage("dataset", "fetch", "--dataset", name,
                "--revision", revision, "--to", cache.toString(), "--json"), up.cliEnvironment(),
                EndToEndBenchmark.none(), work);
        double stowageSeconds = seconds(t);
        System.out.printf(java.util.Locale.ROOT, "%s: CPU s by process: cli %.2f, %s%n", flow, stowage.cpuSeconds(),
                StowageUp.cpuDelta(byProcess, up.cpuByProcess()));
        if (!stowage.output().contains("\"fetched\":" + shards)) {
            throw new IllegalStateException("dataset fetch did not fetch " + shards + " shards: " + stowage.output());
        }
        EndToEndBenchmark.deleteTree(cache);
        System.out.printf(java.util.Locale.ROOT, "%s: rclone copy %.2f s, rclone copy + sync %.2f s, stowage %.2f s"
                + " (ratio against rclone + sync %.2fx)%n", flow, referenceSeconds, syncedSeconds, stowageSeconds,
                syncedSeconds / stowageSeconds);
        return new Figure(flow, bytes, stowageSeconds, referenceSeconds,
                stowage.cpuSeconds() + up.servicesCpuSeconds() - services, reference.cpuSeconds(), 1.5, load);
    }

    /** @return the CPU seconds of the stack's servers (s3proxy, kafka) between two snapshots */
    private static String serverCpu(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> servers = new java.util.TreeMap<>();
        Map<String, Double> from = new java.util.TreeMap<>();
        for (String name : List.of("s3proxy", "kafka")) {
            servers.put(name, after.getOrDefault(name, 0.0));
            from.put(name, before.getOrDefault(name, 0.0));
        }
        return StowageUp.cpuDelta(from, servers);
    }

    private List<String> stowage(String... args) throws IOException {
        List<String> command = new ArrayList<>(up.command(repo));
        command.addAll(List.of(args));
        return command;
    }

    private static void requireVerified(String output) {
        // exit 0 of a publish without --no-wait means the ledger showed every file verified; the JSON is the event
        if (!output.contains("\"manifestSha256\"")) {
            throw new IllegalStateException("checkpoint publish printed no published event: " + output);
        }
    }

    private static Path largest(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = new ArrayList<>(files.toList());
            all.sort((a, b) -> Long.compare(size(b), size(a)));
            return all.get(0);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
