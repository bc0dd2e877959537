package io.stowage.cli.retention;

import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;

import java.util.List;

/**
 * Decides from the ledger's evidence whether a checkpoint step counts as verified for retention: published with a
 * known file count, no upload failure, every file in the primary store with a HEAD OK and at least one full re-read
 * OK, and for a key checkpoint every file in the replica with a HEAD OK too. Anything less (or anything unknown) is
 * unverified, which retention never expires and never counts toward keep-last or keep-best.
 */
public final class StepVerification {
    private StepVerification() {
    }

    /** @return true when the step is verified as above */
    public static boolean verified(CheckpointStepEvidence step) {
        if (step.asset() == null || !step.asset().sealed() || step.fileCount() < 1 || !step.asset().uploadFailures().isEmpty()) {
            return false;
        }
        List<ObjectEvidence> primary = inStore(step, "primary");
        boolean primaryOk = primary.size() >= step.fileCount()
                && primary.stream().allMatch(o -> o.headResult() == VerifyResult.OK)
                && primary.stream().anyMatch(o -> o.fullReadResult() == VerifyResult.OK)
                && primary.stream().noneMatch(o -> o.fullReadResult() != null && o.fullReadResult() != VerifyResult.OK);
        if (!primaryOk) {
            return false;
        }
        if (!step.asset().keyCheckpoint()) {
            return true;
        }
        List<ObjectEvidence> replica = inStore(step, "replica");
        return replica.size() >= step.fileCount() && replica.stream().allMatch(o -> o.headResult() == VerifyResult.OK);
    }

    private static List<ObjectEvidence> inStore(CheckpointStepEvidence step, String store) {
        return step.asset().objects().stream().filter(o -> store.equals(o.store())).toList();
    }
}
