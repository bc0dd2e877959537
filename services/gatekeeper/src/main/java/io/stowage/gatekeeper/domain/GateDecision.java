package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.FailedCondition;

import java.util.List;

/**
 * The outcome of one gate evaluation: passed (with the assets that account for the directory, its
 * inventory and fingerprint) or denied (with every failed check); both with the five condition
 * results and their evidence event ids.
 *
 * @param assets      asset ids touching the directory, sorted (also when denied)
 * @param inventory   every regular file under the directory with bytes and SHA-256 (null when denied)
 * @param fingerprint the directory's fingerprint taken after every file was hashed (null when denied)
 * @param failed      empty when passed
 * @param conditions  conditions 1 to 5 with pass/fail, reason and evidence
 */
public record GateDecision(List<String> assets, DirectoryInventory inventory, String fingerprint,
                           List<FailedCondition> failed, List<ConditionResult> conditions) {

    public GateDecision {
        assets = List.copyOf(assets);
        failed = List.copyOf(failed);
        conditions = List.copyOf(conditions);
    }

    /** @return a passing decision; every condition must have passed */
    public static GateDecision passed(List<String> assets, DirectoryInventory inventory, String fingerprint,
                                      List<ConditionResult> conditions) {
        if (!conditions.stream().allMatch(ConditionResult::passed)) {
            throw new IllegalArgumentException("a passing decision has no failed condition");
        }
        return new GateDecision(assets, inventory, fingerprint, List.of(), conditions);
    }

    /** @return a denial naming the assets it examined; {@code failed} must not be empty */
    public static GateDecision denied(List<String> assets, List<FailedCondition> failed,
                                      List<ConditionResult> conditions) {
        if (failed.isEmpty()) {
            throw new IllegalArgumentException("a denial names at least one failed condition");
        }
        return new GateDecision(assets, null, null, failed, conditions);
    }

    /** @return true when every condition held */
    public boolean passed() {
        return failed.isEmpty();
    }

    /** @return regular files under the directory (0 when denied) */
    public int fileCount() {
        return inventory == null ? 0 : inventory.fileCount();
    }

    /** @return their total bytes (0 when denied) */
    public long totalBytes() {
        return inventory == null ? 0 : inventory.totalBytes();
    }
}
