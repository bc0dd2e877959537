package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.audit.MilestoneArchiver;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.AssetIds;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ledger.ObjectEvidence;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code stowage audit archive (--run EXPERIMENT/RUN | --dataset NAME@REVISION) [--dry-run] [--json]}: closes a
 * milestone. Consumes the ledger's archive text of the run (every event of its checkpoint steps) or dataset revision,
 * produces {@code ledger/archives/<asset>/<sha256>.jsonl.zst} through the uploader ({@code archive.published}) and
 * waits until the ledger records it uploaded and verified ({@link MilestoneArchiver}). Exit 0 verified, 1 failed,
 * 2 bad asset.
 */
@Command(name = "archive", mixinStandardHelpOptions = true,
        description = "Close a run or dataset revision: export its ledger events to a verified jsonl.zst in the store.")
public final class AuditArchiveCommand implements Callable<Integer> {
    @ArgGroup(multiplicity = "1")
    Target target;

    @Option(names = "--dry-run", description = "Export and hash the archive, print its key; write and publish nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print the result as one line of JSON.")
    boolean json;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "How long to wait for the upload and verification (default ${DEFAULT-VALUE} s).")
    long timeoutSeconds;

    /** Exactly one of the two closable assets. */
    static final class Target {
        @Option(names = "--run", paramLabel = "EXPERIMENT/RUN", required = true, description = "A training run.")
        String run;
        @Option(names = "--dataset", paramLabel = "NAME@REVISION", required = true, description = "A dataset revision.")
        String dataset;
    }

    /**
     * What was archived.
     *
     * @param uploaded   false for a dry run
     * @param verified   HEAD and full-read results both OK (false for a dry run)
     */
    public record Result(String archivedAsset, String key, String sha256, long bytes, long events, long firstSeq, long lastSeq,
                  String lastChainHash, String localPath, boolean dryRun, boolean uploaded, boolean verified) {
    }

    @Override
    public Integer call() throws IOException {
        String asset = archivedAsset(target);
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        MilestoneArchiver archiver = new MilestoneArchiver(session.serviceUrl("ledger"), Path.of(session.stagingDir()),
                List.of(session.stack().s3AccessKey(), session.stack().s3SecretKey()), Clock.systemUTC());
        MilestoneArchiver.Prepared archive = archiver.prepare(asset);
        if (dryRun) {
            return print(new Result(asset, archive.key(), archive.sha256(), archive.bytes().length, archive.events(),
                    archive.firstSeq(), archive.lastSeq(), archive.lastChainHash(), null, true, false, false));
        }
        Path file = archiver.write(archive);
        try (EventPublisher publisher = new EventPublisher(session.kafkaClient())) {
            archiver.publish(archive, file, publisher);
        }
        if (!json) {
            System.err.printf("archive of %s (%d events) published, waiting for upload and verification…%n", asset,
                    archive.events());
        }
        ObjectEvidence copy = archiver.awaitVerified(archive.key(), Duration.ofSeconds(timeoutSeconds));
        return print(new Result(asset, copy.key(), archive.sha256(), archive.bytes().length, archive.events(),
                archive.firstSeq(), archive.lastSeq(), archive.lastChainHash(), file.toString(), false, true, true));
    }

    /** @return {@code run/E/R} or {@code dataset/NAME/REV}; throws {@link CliException} (exit 2) for a bad name */
    static String archivedAsset(Target target) {
        try {
            if (target.run != null) {
                String[] parts = target.run.split("/", -1);
                if (parts.length != 2) {
                    throw new CliException(CliException.USAGE, "--run is EXPERIMENT/RUN, not " + target.run);
                }
                return AssetIds.run(parts[0], parts[1]);
            }
            String[] parts = target.dataset.split("@", -1);
            if (parts.length != 2) {
                throw new CliException(CliException.USAGE, "--dataset is NAME@REVISION, not " + target.dataset);
            }
            return AssetIds.dataset(parts[0], parts[1]);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
    }

    private int print(Result r) {
        if (json) {
            JsonOut.print(r);
        } else if (r.dryRun()) {
            System.out.printf("would archive %s: %d events (seq %d..%d), %d bytes, key %s%n", r.archivedAsset(),
                    r.events(), r.firstSeq(), r.lastSeq(), r.bytes(), r.key());
        } else {
            System.out.printf("archived %s: %d events (seq %d..%d, last link %s), %d bytes at %s, uploaded and verified%n",
                    r.archivedAsset(), r.events(), r.firstSeq(), r.lastSeq(), r.lastChainHash(), r.bytes(), r.key());
        }
        return 0;
    }
}
