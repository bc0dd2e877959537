package io.stowage.cli.command;

import io.stowage.cli.StowageCli;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.platform.CliClassArchive;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Hidden: the workload whose loaded classes go into the CLI's class archive ({@link CliClassArchive}), run by
 * {@code stowage up} in a child JVM. It only reads: {@code status}, ledger questions about an asset that does not
 * exist, a {@code dataset fetch} of a revision that does not exist (into a temporary directory), the preparation of a
 * {@code checkpoint publish} of a 1 MiB step made in that directory (hashes, manifest, event; its staging there too),
 * and the Kafka producer's metadata request with the CLI's login; nothing is published, nothing is written to the
 * stores or the ledger, and the temporary directory is removed.
 * Exit 0 once it ran (the commands' own failures are expected and ignored), 1 without a running {@code stowage up}.
 */
@Command(name = CliClassArchive.TRAINING_COMMAND, hidden = true,
        description = "Internal: the read-only workload of the CLI's class archive.")
public final class ClassArchiveTrainingCommand implements Callable<Integer> {

    @Override
    public Integer call() throws Exception {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        PrintStream out = System.out;
        PrintStream err = System.err;
        Path scratch = Files.createTempDirectory("stowage-class-archive");
        try {
            System.setOut(new PrintStream(PrintStream.nullOutputStream()));
            System.setErr(new PrintStream(PrintStream.nullOutputStream()));
            attempt(() -> StowageCli.execute("status", "--json"));
            attempt(() -> StowageCli.execute("dataset", "fetch", "--dataset", "stowage-class-archive", "--revision",
                    "absent", "--to", scratch.resolve("cache").toString(), "--json"));
            LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
            attempt(() -> ledger.asset("checkpoint:stowage-class-archive/absent/0"));
            // a publish's preparation of a small step, into the scratch directory: hashes, manifest, event, its JSON
            attempt(() -> {
                Path step = Files.createDirectories(scratch.resolve("step-000000000001"));
                Files.write(step.resolve("model.bin"), new byte[1 << 20]);
                Files.writeString(step.resolve(CheckpointPublisher.PROVENANCE_FILE), "{\"codeCommit\":\"" + "a".repeat(40)
                        + "\",\"codeClean\":true,\"configSha256\":\"" + "b".repeat(64) + "\",\"dataManifestSha256\":\""
                        + "c".repeat(64) + "\",\"seed\":1}\n");
                CheckpointPublisher.Prepared prepared = new CheckpointPublisher(Files.createDirectories(
                        scratch.resolve("staging")), Clock.systemUTC()).prepare(step, "stowage-class-archive", "training",
                        1, false, List.of());
                io.stowage.events.EventCodec.encode(prepared.event());
                io.stowage.cli.output.JsonOut.print(prepared.event());
                ledger.deadLetterIds(prepared.event().assetId());
                return null;
            });
            attempt(() -> {
                try (EventPublisher publisher = new EventPublisher(session.kafkaClient())) {
                    publisher.checkBroker();
                }
                return null;
            });
        } finally {
            System.setOut(out);
            System.setErr(err);
            try (var paths = Files.walk(scratch)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        return 0;
    }

    /** Runs one part of the workload; its failure (a service down, a refusal) only means fewer classes archived. */
    private static void attempt(Callable<?> part) {
        try {
            part.call();
        } catch (Exception | LinkageError e) {
            // expected for the absent revision and asset; the classes it loaded on the way count all the same
        }
    }
}
