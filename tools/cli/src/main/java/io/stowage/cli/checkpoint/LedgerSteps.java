package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectKind;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Consumes what the ledger knows of one run's checkpoint steps ({@code GET /api/checkpoints/steps}) and produces the
 * checks and wording a command needs before it acts on a step: pin and unpin refuse a run or step the ledger does not
 * know, fetch says that a step missing from the store was expired by retention, and fetch takes a step's file list as
 * published from here ({@link #published}), never from the store's listing.
 */
public final class LedgerSteps {
    private final String experiment;
    private final String runName;
    private final String run;
    private final List<CheckpointStepEvidence> steps;

    /** @param known the ledger's answer for the run; an empty step list means the ledger knows no such run */
    public LedgerSteps(RunCheckpoints known) {
        this.experiment = known.experiment();
        this.runName = known.run();
        this.run = known.experiment() + "/" + known.run();
        this.steps = known.steps() == null ? List.of() : known.steps();
    }

    /**
     * The files of a published step as the ledger recorded them: every checkpoint-file object of the step's asset in any
     * store (a key checkpoint's replica copy has the same key), each key parsed into path and SHA-256 by
     * {@link StoredCheckpoint#select}. The count must equal the file count {@code checkpoint.published} named, so a file
     * whose upload the ledger never saw is not silently left out.
     *
     * @return the step's files, sorted by path; what {@code checkpoint fetch --step} must fetch, all of them
     * @throws CliException exit 1 when the ledger knows no such step, the step was expired by retention, the ledger holds
     *                      no object of it, or fewer objects than the step published (the message names the counts)
     */
    public StoredCheckpoint published(long step) {
        CheckpointStepEvidence evidence = require(step, "nothing fetched");
        whyNotStored(step).ifPresent(why -> {
            throw new CliException(CliException.FAILED, why);
        });
        String prefix = ObjectKeys.checkpointLatest(experiment, runName).replaceFirst("latest\\.json$", "");
        List<ObjectEvidence> objects = evidence.asset() == null || evidence.asset().objects() == null ? List.of()
                : evidence.asset().objects();
        List<String> keys = objects.stream().filter(o -> o.kind() == ObjectKind.CHECKPOINT_FILE)
                .map(ObjectEvidence::key).distinct().toList();
        StoredCheckpoint files = StoredCheckpoint.select(prefix, keys, step).orElseThrow(() -> new CliException(
                CliException.FAILED, "the ledger records no stored file of step " + step + " of " + run
                + " (its upload may not have begun): nothing fetched"));
        if (evidence.fileCount() > 0 && files.files().size() != evidence.fileCount()) {
            throw new CliException(CliException.FAILED, "the ledger records " + files.files().size() + " stored files of"
                    + " step " + step + " of " + run + ", which published " + evidence.fileCount() + ": nothing fetched");
        }
        return files;
    }

    /**
     * @param refused what the caller did not do, ending the message, e.g. "nothing pinned"
     * @return the step's evidence
     * @throws CliException exit 1 when the ledger knows no step of the run, or not this one (the message lists the
     *                      steps it knows)
     */
    public CheckpointStepEvidence require(long step, String refused) {
        return find(step).orElseThrow(() -> new CliException(CliException.FAILED, unknown(step) + ": " + refused));
    }

    /**
     * @return why the step has no object in the store, when the ledger can say: "step N of E/R was expired by retention
     *         at T (checkpoint.expired E)", or that the ledger knows no such step or run; empty when the ledger holds the
     *         step as stored (the store lost it, or its listing is behind)
     */
    public Optional<String> whyNotStored(long step) {
        Optional<CheckpointStepEvidence> found = find(step);
        if (found.isEmpty()) {
            return Optional.of(unknown(step));
        }
        CheckpointStepEvidence evidence = found.get();
        if (evidence.expiredEventId() == null) {
            return Optional.empty();
        }
        return Optional.of("step " + step + " of " + name() + " was expired by retention"
                + (evidence.expiredAt() != null ? " at " + evidence.expiredAt() : "")
                + " (checkpoint.expired " + evidence.expiredEventId() + "): its objects were deleted from the store");
    }

    private Optional<CheckpointStepEvidence> find(long step) {
        return steps.stream().filter(s -> s.step() == step).findFirst();
    }

    private String unknown(long step) {
        if (steps.isEmpty()) {
            return "the ledger knows no run " + name() + " (no checkpoint step of it was published)";
        }
        List<CheckpointStepEvidence> stored = steps.stream().filter(s -> s.expiredEventId() == null).toList();
        long expired = steps.size() - stored.size();
        return "the ledger knows no step " + step + " of " + name() + " (its stored steps: "
                + (stored.isEmpty() ? "none" : listed(stored)) + (expired > 0 ? "; " + expired + " expired by retention" : "") + ")";
    }

    private static String listed(List<CheckpointStepEvidence> steps) {
        if (steps.size() <= 10) {
            return steps.stream().map(s -> Long.toString(s.step())).collect(Collectors.joining(", "));
        }
        return steps.get(0).step() + " to " + steps.get(steps.size() - 1).step() + ", " + steps.size() + " in all";
    }

    private String name() {
        return run;
    }
}
