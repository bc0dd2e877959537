package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.GatekeeperClient;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.model.ModelPromoter;
import io.stowage.cli.model.ModelPublisher;
import io.stowage.cli.model.ModelRevisions;
import io.stowage.cli.model.StepChoice;
import io.stowage.cli.retention.CapsuleRetention;
import io.stowage.cli.retention.StepVerification;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.store.s3.S3ObjectStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage model promote --experiment E --run R (--step N | --best METRIC --mode min|max | --latest) --model M
 * --revision R --license L}: a stored checkpoint step becomes a model revision by copies inside the store
 * ({@link ModelPromoter}), each re-read and checked, then goes through the uploader (which finds every file already at
 * its key) and the verifier like a published one; the model manifest and {@code model.published} name the step
 * ({@code fromCheckpoint}) and carry its provenance. The step is chosen by {@link StepChoice}: {@code --step} names it;
 * {@code --best} takes the run's verified step (the ledger's {@code GET /api/checkpoints/steps}, verified as retention
 * counts it) lowest ({@code min}) or highest ({@code max}) by the metric, the newest on a tie; {@code --latest} takes
 * the step the run's {@code latest.json} names, the step retention keeps as {@code latest}. Exactly one of the three,
 * else exit 2.
 */
@Command(name = "promote", mixinStandardHelpOptions = true,
        description = {"Promote a stored checkpoint step to a model revision without downloading it: CopyObject (UploadPartCopy"
                + " parts above 5 GiB) to models/M/R/<sha256>/<path>, each copy re-read and its SHA-256 checked;"
                + " the revision records the step it came from and inherits its provenance.",
                "Choose the step with exactly one of --step N, --best METRIC --mode min|max (the run's verified step"
                        + " best by the metric, the newest on a tie) or --latest (the step latest.json names)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:promoted and verified, or already stored", "1:the step or its ledger record is missing,"
                + " another revision's content, no verified step has the --best metric, a copy failed or hashed wrong",
                "2:bad input"})
final class ModelPromoteCommand implements Callable<Integer> {
    @Option(names = "--experiment", required = true, description = "Experiment name.")
    String experiment;
    @Option(names = "--run", required = true, description = "Run name.")
    String run;
    @Option(names = "--step", paramLabel = "N", description = "The step number.")
    Long step;
    @Option(names = "--best", paramLabel = "METRIC", description = "The run's verified step best by this metric (needs --mode).")
    String best;
    @Option(names = "--mode", paramLabel = "min|max", description = "With --best: min (lower is better, a loss) or max.")
    String mode;
    @Option(names = "--latest", description = "The step the run's latest.json names.")
    boolean latest;
    @Option(names = "--model", required = true, description = "Model name.")
    String model;
    @Option(names = "--revision", required = true, description = "Revision name.")
    String revision;
    @Option(names = {"--license", "--licence"}, required = true, description = "The licence the model is under.")
    String license;
    @Option(names = "--source", description = "Where it comes from (default: the checkpoint step's asset id).")
    String source;
    @Option(names = "--part-copy-threshold", paramLabel = "BYTES", defaultValue = "" + S3ObjectStore.PART_COPY_THRESHOLD,
            description = "Above this size a file is copied in UploadPartCopy parts (default ${DEFAULT-VALUE} = 5 GiB).")
    long partCopyThreshold;
    @Option(names = "--part-size", paramLabel = "BYTES", defaultValue = "" + ModelPromoter.PART_SIZE,
            description = "Bytes per part copy (default ${DEFAULT-VALUE}; at least 5 MiB).")
    long partSize;
    @Option(names = "--json", description = "Print {asset, status, fromCheckpoint, manifestSha256, parts, chosen{step,"
            + " selector, reason, metric, value}} as one line.")
    boolean json;

    @Override
    public Integer call() {
        List.of(new String[] {"--experiment", experiment}, new String[] {"--run", run}, new String[] {"--model", model},
                new String[] {"--revision", revision}).forEach(o -> NameArguments.require(o[0], o[1]));
        if (license.isBlank() || partSize < (5L << 20) || partCopyThreshold < 0) {
            throw new CliException(CliException.USAGE, "--license must not be blank and --part-size must be at least 5 MiB");
        }
        RetentionPolicy.Mode bestMode = selector();
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        Progress progress = new Progress(System.err, json);
        LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
        ModelPublisher publisher = new ModelPublisher(Path.of(session.stagingDir()), Clock.systemUTC());
        try (PrimaryStore store = new PrimaryStore(session.stack())) {
            ModelPromoter promoter = new ModelPromoter(store, publisher);
            StepChoice.Choice chosen = best == null ? null : StepChoice.best(experiment + "/" + run,
                    candidates(ledger.checkpoints(experiment, run)), best, bestMode);
            Long wanted = chosen != null ? Long.valueOf(chosen.step()) : latest ? null : step;
            ModelPromoter.Promotion promotion = promoter.plan(experiment, run, wanted, model,
                    revision, license, source, id -> step(ledger, id),
                    ModelPromoter.promotedDir(Path.of(session.stagingDir()), model, revision));
            if (chosen == null) {
                chosen = latest ? StepChoice.latest(promotion.step()) : StepChoice.step(promotion.step());
            }
            progress.step("chose step " + promotion.step() + " of " + experiment + "/" + run + ": " + chosen.reason());
            ModelPublisher.Planned planned = promotion.planned();
            pin(session, ledger, promotion, progress);
            if (new ModelRevisions(store, ledger::asset).decide(planned) == ModelRevisions.Decision.ALREADY_STORED) {
                return print(planned, promotion, chosen, "already stored", List.of());
            }
            List<Integer> parts = promoter.copy(promotion, partCopyThreshold, partSize);
            progress.step("copied " + parts.size() + " file(s) of " + promotion.checkpoint() + " inside the store ("
                    + parts.stream().filter(p -> p > 0).count() + " in parts), each re-read and its SHA-256 checked");
            ModelPublished event = promoter.stage(promotion);
            try (EventPublisher events = new EventPublisher(session.kafkaClient())) {
                events.publish(event);
            }
            ledger.awaitVerified(planned.assetId(), event.fileCount() + 1, Duration.ofHours(2));
            return print(planned, promotion, chosen, "stored", parts);
        }
    }

    /**
     * @return the --best mode, or null without --best
     * @throws CliException exit 2 unless exactly one of --step, --best (with --mode) and --latest is given
     */
    private RetentionPolicy.Mode selector() {
        int given = (step != null ? 1 : 0) + (best != null ? 1 : 0) + (latest ? 1 : 0);
        if (given != 1 || (best == null) != (mode == null) || (best != null && best.isBlank())) {
            throw new CliException(CliException.USAGE, "give exactly one of --step N, --best METRIC --mode min|max or"
                    + " --latest (--mode goes with --best only)");
        }
        try {
            return CapsuleRetention.mode(mode);
        } catch (IllegalArgumentException e) {
            throw new CliException(CliException.USAGE, "--" + e.getMessage());
        }
    }

    // the run's stored steps, verified as retention counts them; an expired step is gone from the store
    private static List<StepChoice.Candidate> candidates(RunCheckpoints run) {
        return run.steps().stream().filter(s -> s.expiredEventId() == null)
                .map(s -> new StepChoice.Candidate(s.step(), StepVerification.verified(s), s.metrics())).toList();
    }

    /**
     * Pins the step before anything is copied ({@code POST /api/checkpoints/pins}, recorded as {@code checkpoint.pinned}
     * in the ledger); also when the revision is already stored. An operator's {@code checkpoint unpin} can lift the pin,
     * but retention keeps the step anyway while a model revision names it (the ledger's {@code promotedTo}).
     */
    private static void pin(Session session, LedgerClient ledger, ModelPromoter.Promotion promotion, Progress progress) {
        com.fasterxml.jackson.databind.JsonNode answer = new GatekeeperClient(session.serviceUrl("gatekeeper"))
                .pin(promotion.experiment(), promotion.run(), promotion.step(), true);
        ledger.awaitEvent(answer.path("eventId").asText(), Duration.ofSeconds(60));
        progress.step("pinned " + promotion.checkpoint() + " (a model revision names it; retention keeps it)");
    }

    /** The ledger must know the step: its provenance is what the revision inherits. */
    private static ModelPromoter.StepRecord step(LedgerClient ledger, String checkpoint) {
        AssetEvidence asset = ledger.asset(checkpoint).orElseThrow(() -> new CliException(CliException.FAILED,
                "cannot promote " + checkpoint + ": the ledger has no record of it"));
        return ModelPromoter.StepRecord.of(asset);
    }

    private int print(ModelPublisher.Planned planned, ModelPromoter.Promotion promotion, StepChoice.Choice chosen,
                      String status, List<Integer> parts) {
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("asset", planned.assetId());
            out.put("status", status);
            out.put("fromCheckpoint", promotion.checkpoint());
            out.put("manifestSha256", planned.sha256());
            out.put("parts", parts);
            out.put("chosen", chosen);
            JsonOut.print(out);
        } else {
            System.out.println(planned.assetId() + ": " + status + " at " + ObjectKeys.modelPrefix(model, revision)
                    + ", promoted from " + promotion.checkpoint());
        }
        return 0;
    }
}
