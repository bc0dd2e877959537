package io.stowage.cli.demo;

import io.stowage.events.FailedCondition;

import java.util.List;

/**
 * What {@code stowage demo} did, printed as a summary and, with {@code --json}, as one line of JSON.
 *
 * @param ledgerEvents events stored in the ledger at the end of the run
 */
public record DemoReport(Dataset dataset, List<Checkpoint> checkpoints, List<Denial> denied, List<String> released,
                         long ledgerEvents) {

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
