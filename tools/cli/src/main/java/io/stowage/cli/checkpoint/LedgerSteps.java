package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.RunCheckpoints;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Consumes what the ledger knows of one run's checkpoint steps ({@code GET /api/checkpoints/steps}) and produces the
 * checks and wording a command needs before it acts on a step: pin and unpin refuse a run or step the ledger does not
 * know, and fetch says that a step missing from the store was expired by retention.
 */
public final class LedgerSteps {
    private final String run;
    private final List<CheckpointStepEvidence> steps;

    /** @param known the ledger's answer for the run; an empty step list means the ledger knows no such run */
    public LedgerSteps(RunCheckpoints known) {
        this.run = known.experiment() + "/" + known.run();
        this.steps = known.steps() == null ? List.of() : known.steps();
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
