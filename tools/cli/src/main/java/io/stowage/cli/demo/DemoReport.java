package io.stowage.cli.demo;

import io.stowage.events.FailedCondition;

import java.util.List;

/**
 * What {@code stowage demo} did, printed as a summary and, with {@code --json}, as one line of JSON.
 *
 * @param ledgerEvents events stored in the ledger at the end of the run
 * @param model        the model revision the key checkpoint was promoted to
 */
public record DemoReport(Dataset dataset, List<Checkpoint> checkpoints, List<Denial> denied, List<String> released,
                         long ledgerEvents, Model model) {

    /**
     * @param asset           {@code model/<model>/<revision>}
     * @param fromCheckpoint  the step it was promoted from
     * @param files           files copied inside the store
     * @param objectsVerified its objects (files and model manifest) whose HEAD and full re-read are OK
     */
    public record Model(String asset, String fromCheckpoint, int files, int objectsVerified) {
    }

    /** @param objectsVerified objects of the dataset (shards, member manifests, manifest) whose HEAD and full re-read are OK */
    public record Dataset(String name, String revision, int shards, int objectsVerified, String gate) {
    }

    /** @param objects files of the step; @param copies stores holding a verified copy of every file */
    public record Checkpoint(long step, int objects, int copies, String gate) {
    }

    /** @param failed the conditions the gate named */
    public record Denial(String path, List<FailedCondition> failed) {
    }
}
