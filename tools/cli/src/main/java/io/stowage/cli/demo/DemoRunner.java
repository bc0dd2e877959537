package io.stowage.cli.demo;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ReleaseRequester;
import io.stowage.cli.client.ShardBuilderClient;
import io.stowage.cli.model.ModelPromoter;
import io.stowage.cli.model.ModelPublisher;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.AssetIds;
import io.stowage.events.Sha256;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseOutcome;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The main job on real input, against a running platform: shards the shipped speech sample,
 * publishes the shipped checkpoint steps (the last one as a key checkpoint), waits until the
 * ledger shows every object uploaded and verified, asks for one release that must be denied (a
 * directory that also holds a never-archived file), then releases the dataset directory and each
 * step directory. Works only on copies under {@code work/hot}.
 */
public final class DemoRunner {
    static final String DATASET = "speech-en-allison";
    static final String REVISION = "r1";
    /** The experiment of the shipped checkpoints ({@code examples/pytorch/checkpoints/speech-digits/}). */
    public static final String EXPERIMENT = "speech-digits";
    /** The run of the shipped checkpoints, under {@link #EXPERIMENT}. */
    public static final String RUN = "run-1";
    static final long DEMO_SHARD_BYTES = 256 * 1024;
    /** The model revision the key checkpoint is promoted to. */
    public static final String MODEL = "speech-digits";
    /** Its revision name. */
    public static final String MODEL_REVISION = "demo-1";
    private static final Duration WAIT = Duration.ofSeconds(180);

    private final Session session;
    private final Progress progress;
    private final Clock clock = Clock.systemUTC();

    public DemoRunner(Session session, Progress progress) {
        this.session = session;
        this.progress = progress;
    }

    /** The scratch hot volume the demo works in: copies of the samples, never the repository's files. */
    public record HotVolume(Path root, Path dataset, Path run) {
        public static HotVolume prepare(Path repo, Path work) throws IOException {
            Path hot = work.resolve("hot");
            HotVolume volume = new HotVolume(hot, hot.resolve("datasets").resolve(DATASET),
                    hot.resolve("checkpoints").resolve(EXPERIMENT).resolve(RUN));
            copyTree(repo.resolve("examples/samples").resolve(DATASET), volume.dataset());
            copyTree(repo.resolve("examples/pytorch/checkpoints").resolve(EXPERIMENT).resolve(RUN), volume.run());
            Files.writeString(volume.run().resolve("train.log"), "stdout of the training run: never archived\n");
            return volume;
        }

        /** @return the volumes whose directories the gate may release: the hot volume */
        public List<Path> volumeRoots() {
            return List.of(root);
        }

        /** @return directories the gate must never release */
        public List<Path> protectedRoots(Path work) {
            return List.of(work, root, root.resolve("datasets"), root.resolve("checkpoints"));
        }
    }

    /**
     * Runs the flow.
     *
     * @throws CliException when a step fails or the planned denial is not denied
     */
    public DemoReport run(HotVolume hot) throws IOException {
        LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
        try (EventPublisher publisher = new EventPublisher(session.kafkaClient())) {
            progress.step("sharding " + hot.dataset() + " (real speech, CC BY-SA 3.0)");
            ShardBuilderClient.ShardResult shards = new ShardBuilderClient(session.serviceUrl("shard-builder")).shard(
                    new ShardBuilderClient.ShardRequest(hot.dataset().toString(), DATASET, REVISION, "CC-BY-SA-3.0",
                            "Debian asterisk-core-sounds-en-wav 1.6.1-1, recorded by Allison Smith",
                            DEMO_SHARD_BYTES, session.stagingDir(), true));
            progress.detail(Inputs.count(shards.shards(), "shard") + ", " + Inputs.count(shards.members(), "member") + ", "
                    + shards.memberBytes() + " bytes");
            List<Path> steps = stepDirs(hot.run());
            CheckpointPublisher checkpoints = new CheckpointPublisher(Path.of(session.stagingDir()), clock);
            List<CheckpointPublisher.Prepared> published = new ArrayList<>();
            for (Path step : steps) {
                boolean key = step.equals(steps.get(steps.size() - 1));
                CheckpointPublisher.Prepared prepared = checkpoints.prepare(step, EXPERIMENT, RUN, stepNumber(step), key,
                        key ? List.of("best") : List.of());
                prepared.warnings().forEach(progress::warn);
                publisher.publish(prepared.event());
                published.add(prepared);
                progress.step("published checkpoint step " + prepared.event().step() + (key ? " (key: second copy)" : ""));
            }
            progress.step("waiting for upload and verification (ledger)");
            String datasetId = AssetIds.dataset(DATASET, REVISION);
            AssetEvidence dataset = ledger.awaitVerified(datasetId, 2 * shards.shards() + 1, WAIT);
            for (CheckpointPublisher.Prepared p : published) {
                ledger.awaitVerified(p.event().assetId(), p.event().fileCount() * (p.event().key() ? 2 : 1), WAIT);
            }
            DemoReport.Model model = promote(ledger, publisher, published.get(published.size() - 1));
            ReleaseRequester releases = new ReleaseRequester(session.serviceUrl("gatekeeper"), ledger,
                    io.stowage.events.ProtectedRoots.parse(session.protectedRoots()));
            List<DemoReport.Denial> denied = new ArrayList<>();
            progress.step("asking to release " + hot.run() + ", which also holds train.log (never archived)");
            Map<Path, String> before = snapshot(hot.run());
            ReleaseOutcome denial = releases.release(hot.run(), false, WAIT);
            if (!"denied".equals(denial.gate()) || !before.equals(snapshot(hot.run()))) {
                throw new CliException(CliException.FAILED, "the planned denial of " + hot.run() + " was not denied: " + denial);
            }
            denial.failed().forEach(f -> progress.detail("denied: condition " + f.condition() + " " + f.code() + ": " + f.detail()));
            denied.add(new DemoReport.Denial(denial.path(), denial.failed()));

            List<String> released = new ArrayList<>();
            String datasetGate = release(releases, hot.dataset(), released);
            List<DemoReport.Checkpoint> reports = new ArrayList<>();
            for (CheckpointPublisher.Prepared p : published) {
                String gate = release(releases, Path.of(p.event().stepDir()), released);
                reports.add(new DemoReport.Checkpoint(p.event().step(), p.event().fileCount(), p.event().key() ? 2 : 1, gate));
            }
            int verified = (int) dataset.objects().stream().filter(DemoRunner::verified).count();
            return new DemoReport(new DemoReport.Dataset(DATASET, REVISION, shards.shards(), verified, datasetGate),
                    reports, denied, released, ledger.status().events(), model);
        }
    }

    /**
     * The key checkpoint becomes model revision {@link #MODEL}/{@link #MODEL_REVISION} by copies inside the store
     * ({@link ModelPromoter}), each re-read, then uploaded-and-verified evidence through the services.
     */
    private DemoReport.Model promote(LedgerClient ledger, EventPublisher publisher, CheckpointPublisher.Prepared key) {
        try (PrimaryStore store = new PrimaryStore(session.stack())) {
            ModelPromoter promoter = new ModelPromoter(store, new ModelPublisher(Path.of(session.stagingDir()), clock));
            ModelPromoter.Promotion promotion = promoter.plan(EXPERIMENT, RUN, key.event().step(), MODEL, MODEL_REVISION,
                    "CC-BY-SA-3.0", null, id -> ledger.asset(id).map(ModelPromoter.StepRecord::of).orElseThrow(),
                    ModelPromoter.promotedDir(Path.of(session.stagingDir()), MODEL, MODEL_REVISION));
            promoter.copy(promotion, io.stowage.store.s3.S3ObjectStore.PART_COPY_THRESHOLD, ModelPromoter.PART_SIZE);
            publisher.publish(promoter.stage(promotion));
            int files = promotion.files().size();
            AssetEvidence model = ledger.awaitVerified(promotion.planned().assetId(), files + 1, WAIT);
            progress.step("promoted " + promotion.checkpoint() + " to " + model.assetId() + " (" + files
                    + " files copied inside the store, each re-read)");
            int verified = (int) model.objects().stream().filter(DemoRunner::verified).count();
            return new DemoReport.Model(model.assetId(), promotion.checkpoint(), files, verified);
        }
    }

    private String release(ReleaseRequester releases, Path dir, List<String> released) {
        progress.step("releasing " + dir);
        ReleaseOutcome outcome = releases.release(dir, false, WAIT);
        if (!outcome.released()) {
            String why = outcome.failureReason() != null ? outcome.failureReason()
                    : outcome.failed().stream().map(f -> f.condition() + " " + f.code() + ": " + f.detail()).collect(Collectors.joining("; "));
            throw new CliException(CliException.FAILED, "release of " + dir + " did not happen (gate " + outcome.gate() + "): " + why);
        }
        if (Files.exists(dir)) {
            throw new CliException(CliException.FAILED, "the ledger says " + dir + " was released but it still exists");
        }
        released.add(outcome.path());
        return outcome.gate();
    }

    private static boolean verified(ObjectEvidence object) {
        return object.headResult() == VerifyResult.OK && object.fullReadResult() == VerifyResult.OK;
    }

    /**
     * @param run a run directory
     * @return its direct subdirectories named {@code step-*}, sorted by name
     * @throws IOException when {@code run} cannot be listed
     */
    public static List<Path> stepDirs(Path run) throws IOException {
        try (Stream<Path> list = Files.list(run)) {
            return list.filter(Files::isDirectory).filter(p -> p.getFileName().toString().startsWith("step-")).sorted().toList();
        }
    }

    /**
     * @param stepDir a directory named {@code step-N}
     * @return N
     * @throws NumberFormatException when the name does not end in a number after {@code step-}
     */
    public static long stepNumber(Path stepDir) {
        return Long.parseLong(stepDir.getFileName().toString().substring("step-".length()));
    }

    static Map<Path, String> snapshot(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            Map<Path, String> files = new java.util.TreeMap<>();
            for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                files.put(file, Sha256.of(file));
            }
            return files;
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            throw new CliException(CliException.FAILED, "missing sample directory " + from);
        }
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
