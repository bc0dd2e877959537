package io.stowage.bench.e2e;

import io.stowage.bench.ExternalCommand;
import io.stowage.bench.MachineInfo;
import io.stowage.bench.MixedInput;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The end-to-end benchmark (not a test): the product as a user runs it. Starts {@code stowage up} (the embedded
 * servers and the six packaged services, exactly as the command starts them), then, on the same input and the same
 * S3 server, times each flow from the command to "verified in the ledger" against the shell tools a user would
 * script instead, and prints both, their ratio, CPU seconds per GiB and the load average before each flow:
 * <ul>
 *   <li>{@code checkpoint publish} of one large file, against {@code aws s3 cp} up plus {@code aws s3 cp - | sha256sum}
 *       down;</li>
 *   <li>{@code checkpoint publish} of many small files, against {@code aws s3 cp --recursive} up and down plus
 *       {@code sha256sum} of every file;</li>
 *   <li>{@code release} of the verified large-file step (request to deleted), against {@code sha256sum} of every
 *       file, what a careful person runs before {@code rm -r};</li>
 *   <li>{@code dataset shard} of real speech WAVs, random bytes and text ({@link MixedInput}) to sealed and verified,
 *       against {@code sha256sum} of every member, {@code tar | zstd -3 -T0 | sha256sum} and {@code aws s3 cp} up and
 *       down;</li>
 *   <li>{@code dataset fetch} of another revision (by default 1 GiB in 8 shards) into an empty cache, against
 *       {@code rclone copy} of its shards;</li>
 *   <li>{@code release} of a verified step of many files (by default 10 GiB in 10 files), against {@code sha256sum};</li>
 *   <li>the ledger, with the other services running ({@link LedgerFlows}): ingest of a backlog of events (events/s,
 *       goal 10,000) and the gate's evidence query with a million objects in the ledger (p99, goal 100 ms).</li>
 * </ul>
 * System properties: {@code stowage.bench.e2e.large-bytes} (default 1 GiB), {@code .files} (1000),
 * {@code .file-bytes} (1 MiB), {@code .dataset-bytes} (2 GiB), {@code .shard-bytes} (1 GiB), {@code .wav-dir}
 * (Debian's asterisk-core-sounds-en-wav, else the checkout's sample), {@code .fetch-bytes} (1 GiB),
 * {@code .fetch-shards} (8), {@code .release-bytes} (10 GiB), {@code .release-files} (10), {@code .ingest-events}
 * (200000), {@code .evidence-objects} (1000000), {@code .evidence-queries} (1000), {@code .only} ({@code ledger}: only
 * the ledger's rows), {@code .rclone} (rclone), {@code stowage.repo} (the checkout; default: found from the working directory),
 * {@code stowage.bench.e2e.aws} (default {@code /usr/bin/aws}). Exits non-zero when a flow fails, so a smoke run at
 * tiny sizes proves that every step ran.
 */
public final class EndToEndBenchmark {
    private static final PrintStream OUT = System.out;
    /** Debian's {@code asterisk-core-sounds-en-wav}: real recorded speech, used when installed. */
    private static final String SYSTEM_WAVS = "/usr/share/asterisk/sounds/en_US_f_Allison";

    private EndToEndBenchmark() {
    }

    /** @throws Exception when the stack, a command or a reference tool fails */
    public static void main(String[] args) throws Exception {
        long large = Long.getLong("stowage.bench.e2e.large-bytes", 1L << 30);
        int files = Integer.getInteger("stowage.bench.e2e.files", 1000);
        long fileBytes = Long.getLong("stowage.bench.e2e.file-bytes", 1L << 20);
        String aws = System.getProperty("stowage.bench.e2e.aws", "/usr/bin/aws");
        String rclone = System.getProperty("stowage.bench.e2e.rclone", "rclone");
        long datasetBytes = Long.getLong("stowage.bench.e2e.dataset-bytes", 2L << 30);
        long shardBytes = Long.getLong("stowage.bench.e2e.shard-bytes", 1L << 30);
        long fetchBytes = Long.getLong("stowage.bench.e2e.fetch-bytes", 1L << 30);
        int fetchShards = Integer.getInteger("stowage.bench.e2e.fetch-shards", 8);
        long releaseBytes = Long.getLong("stowage.bench.e2e.release-bytes", 10L << 30);
        int releaseFiles = Integer.getInteger("stowage.bench.e2e.release-files", 10);
        int ingestEvents = Integer.getInteger("stowage.bench.e2e.ingest-events", 200_000);
        int evidenceObjects = Integer.getInteger("stowage.bench.e2e.evidence-objects", 1_000_000);
        int evidenceQueries = Integer.getInteger("stowage.bench.e2e.evidence-queries", 1000);
        boolean ledgerOnly = "ledger".equals(System.getProperty("stowage.bench.e2e.only"));
        Path repo = repo();
        Path wavs = Path.of(System.getProperty("stowage.bench.e2e.wav-dir",
                Files.isDirectory(Path.of(SYSTEM_WAVS)) ? SYSTEM_WAVS
                        : repo.resolve("examples/samples/speech-en-allison").toString()));
        Path work = Files.createTempDirectory("stowage-e2e-bench");
        Path hot = Files.createDirectories(work.resolve("hot"));
        OUT.printf("## End-to-end benchmark%n- date: %s%n- %d cores; load average %s%n- java: %s%n- aws: %s%n"
                        + "- rclone: %s%n- inputs: one file of %d bytes; %d files of %d bytes; a dataset of about %d bytes"
                        + " (WAVs of %s, random bytes, text) cut into shards of %d bytes; a revision of %d bytes in %d shards to"
                        + " fetch; a step of %d files, %d bytes, to release; a backlog of %d events; %d objects in the ledger"
                        + " for %d evidence queries%n", java.time.Instant.now(),
                Runtime.getRuntime().availableProcessors(), MachineInfo.loadAverage(), System.getProperty("java.runtime.version"),
                ExternalCommand.firstLine(List.of(aws, "--version")), ExternalCommand.firstLine(List.of(rclone, "version")),
                large, files, fileBytes, datasetBytes, wavs, shardBytes, fetchBytes, fetchShards, releaseFiles, releaseBytes,
                ingestEvents, evidenceObjects, evidenceQueries);
        List<Figure> figures = new ArrayList<>();
        List<LedgerFlows.Row> ledgerRows = new ArrayList<>();
        try (StowageUp up = StowageUp.start(repo, work.resolve("home"), hot)) {
            Flows flows = new Flows(repo, up, aws, rclone, work);
            if (!ledgerOnly) {
                Path one = step(hot, 1, Map.of("model.bin", large));
                figures.add(flows.publish("checkpoint publish 1 x " + size(large) + " -> verified", one, 1, large));
                Map<String, Long> many = new HashMap<>();
                for (int i = 0; i < files; i++) {
                    many.put(String.format("shard-%05d.bin", i), fileBytes);
                }
                Path small = step(hot, 2, many);
                figures.add(flows.publish("checkpoint publish " + files + " x " + size(fileBytes) + " -> verified", small, 2,
                        files * fileBytes));
                figures.add(flows.release("release of the verified " + size(large) + " step -> deleted", one, large));
                MixedInput dataset = MixedInput.write(hot.resolve("datasets/speech"), datasetBytes, wavs, 7);
                Flows.Sharded sharded = flows.shard("dataset shard " + size(dataset.bytes()) + " (" + dataset.files()
                        + " files) -> sealed, verified", dataset.dir(), "speech", "r1", shardBytes, dataset.bytes());
                figures.add(sharded.figure());
                MixedInput fetchInput = MixedInput.write(hot.resolve("datasets/fetch"), fetchBytes, wavs, 11);
                int fetchShardCount = flows.shardUntimed(fetchInput.dir(), "fetch", "r1", Math.max(1, fetchBytes / fetchShards));
                figures.add(flows.fetch("dataset fetch of a " + size(fetchBytes) + " revision (" + fetchShardCount
                        + " shards) -> hashed, fsynced", "fetch", "r1", fetchShardCount));
                Map<String, Long> checkpoint = new HashMap<>();
                for (int i = 0; i < releaseFiles; i++) {
                    checkpoint.put(String.format("model-%05d-of-%05d.safetensors", i + 1, releaseFiles), releaseBytes / releaseFiles);
                }
                Path big = step(hot, 3, checkpoint);
                OUT.printf("published the %d-file step of %s to release in %.1f s%n", releaseFiles, size(releaseBytes),
                        flows.publishUntimed(big, 3));
                figures.add(flows.release("release of a verified " + size(releaseBytes) + " step of " + releaseFiles
                        + " files -> deleted", big, releaseBytes));
            }
            LedgerFlows ledger = new LedgerFlows(repo, up, work);
            ledgerRows.add(ledger.ingest(ingestEvents));
            ledgerRows.add(ledger.evidence(evidenceObjects, evidenceQueries));
        } finally {
            deleteTree(work);
        }
        OUT.println();
        OUT.println(Figure.header());
        figures.forEach(f -> OUT.println(f.row()));
        OUT.println();
        OUT.println(LedgerFlows.Row.header());
        ledgerRows.forEach(r -> OUT.println(r.row()));
        OUT.println("load average at the end: " + MachineInfo.loadAverage());
    }

    /** @return {@code hot/bench/run-1/step-N} holding the named files of random bytes and a complete provenance.json */
    private static Path step(Path hot, long step, Map<String, Long> files) throws IOException {
        Path dir = Files.createDirectories(hot.resolve("bench/run-1").resolve(String.format("step-%012d", step)));
        SplittableRandom random = new SplittableRandom(step);
        byte[] buffer = new byte[1 << 20];
        for (Map.Entry<String, Long> file : files.entrySet()) {
            try (OutputStream out = Files.newOutputStream(dir.resolve(file.getKey()))) {
                for (long left = file.getValue(); left > 0; left -= buffer.length) {
                    for (int i = 0; i < buffer.length; i += 8) {
                        long v = random.nextLong();
                        for (int b = 0; b < 8; b++) {
                            buffer[i + b] = (byte) (v >>> (8 * b));
                        }
                    }
                    out.write(buffer, 0, (int) Math.min(left, buffer.length));
                }
            }
        }
        Files.writeString(dir.resolve("provenance.json"), "{\"codeCommit\":\"" + "a".repeat(40) + "\",\"codeClean\":true,"
                + "\"configSha256\":\"" + "b".repeat(64) + "\",\"dataManifestSha256\":\"" + "c".repeat(64) + "\",\"seed\":1}\n");
        return dir;
    }

    /** @return bytes as {@code N GiB}, {@code N MiB} or {@code N KiB}, whichever is whole (else bytes) */
    private static String size(long bytes) {
        for (String unit : List.of("GiB", "MiB", "KiB")) {
            long scale = 1L << (unit.equals("GiB") ? 30 : unit.equals("MiB") ? 20 : 10);
            if (bytes >= scale && bytes % scale == 0) {
                return bytes / scale + " " + unit;
            }
        }
        return bytes + " bytes";
    }

    private static Path repo() {
        String configured = System.getProperty("stowage.repo");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("stowage")) && Files.isDirectory(dir.resolve("services/ledger"))) {
                return dir;
            }
        }
        throw new IllegalStateException("run from inside the checkout or set -Dstowage.repo");
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static Set<String> none() {
        return Set.of();
    }
}
