package io.stowage.gatekeeper.domain;

import io.stowage.events.FailedCondition;

import java.util.List;

/**
 * The outcome of one gate evaluation: passed (with the assets that account for the directory,
 * its regular-file count and total bytes) or denied (with every failed condition).
 *
 * @param assets     asset ids touching the directory, sorted; empty when denied
 * @param fileCount  regular files under the directory (0 when denied)
 * @param totalBytes their total size in bytes (0 when denied)
 * @param fingerprint the directory's fingerprint taken after every file was hashed (null when denied)
 * @param failed     empty when passed
 */
public record GateDecision(List<String> assets, int fileCount, long totalBytes, String fingerprint,
                           List<FailedCondition> failed) {

    public GateDecision {
        assets = List.copyOf(assets);
        failed = List.copyOf(failed);
    }

    /** @return a passing decision */
    public static GateDecision passed(List<String> assets, int fileCount, long totalBytes, String fingerprint) {
        return new GateDecision(assets, fileCount, totalBytes, fingerprint, List.of());
    }

    /** @return a denial; {@code failed} must not be empty */
    public static GateDecision denied(List<FailedCondition> failed) {
        if (failed.isEmpty()) {
            throw new IllegalArgumentException("a denial names at least one failed condition");
        }
        return new GateDecision(List.of(), 0, 0, null, failed);
    }

    /** @return true when every condition held */
    public boolean passed() {
        return failed.isEmpty();
    }
}
