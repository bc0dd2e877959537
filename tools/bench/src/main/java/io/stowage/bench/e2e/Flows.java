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
    private final Path work;

    Flows(Path repo, StowageUp up, String aws, Path work) {
        this.repo = repo;
        this.up = up;
        this.aws = aws;
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
        long t = System.nanoTime();
        ExternalCommand.Timed reference = ExternalCommand.runTimed(List.of("bash", "-c", script), up.awsEnvironment(),
                EndToEndBenchmark.none(), work);
        double referenceSeconds = seconds(t);
        EndToEndBenchmark.deleteTree(down);
        double services = up.servicesCpuSeconds();
        t = System.nanoTime();
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage("checkpoint", "publish", dir.toString(),
                "--experiment", "bench", "--run", "run-1", "--step", String.valueOf(step), "--json"), up.cliEnvironment(),
                EndToEndBenchmark.none(), work);
        double stowageSeconds = seconds(t);
        requireVerified(stowage.output());
        return new Figure(flow, bytes, stowageSeconds, referenceSeconds,
                stowage.cpuSeconds() + up.servicesCpuSeconds() - services, reference.cpuSeconds(), 1.5, load);
    }

    /**
     * {@code stowage release DIR} (request, gate, deletion by the provider-adapter) against {@code sha256sum} of every
     * file; the directory must be gone afterwards.
     */
    Figure release(String flow, Path dir, long bytes) throws Exception {
        String load = MachineInfo.loadAverage();
        long t = System.nanoTime();
        ExternalCommand.Timed reference = ExternalCommand.runTimed(List.of("bash", "-c",
                "cd " + dir + " && find . -type f -print0 | xargs -0 sha256sum > /dev/null"), Map.of(), EndToEndBenchmark.none(), work);
        double referenceSeconds = seconds(t);
        double services = up.servicesCpuSeconds();
        t = System.nanoTime();
        ExternalCommand.Timed stowage = ExternalCommand.runTimed(stowage("release", dir.toString(), "--json"),
                up.cliEnvironment(), EndToEndBenchmark.none(), work);
        double stowageSeconds = seconds(t);
        if (Files.exists(dir)) {
            throw new IllegalStateException("release exited 0 but " + dir + " is still there: " + stowage.output());
        }
        return new Figure(flow, bytes, stowageSeconds, referenceSeconds,
                stowage.cpuSeconds() + up.servicesCpuSeconds() - services, reference.cpuSeconds(), 1.0, load);
    }

    private List<String> stowage(String... args) {
        List<String> command = new ArrayList<>(StowageUp.cli(repo));
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
