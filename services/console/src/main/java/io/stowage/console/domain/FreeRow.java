package io.stowage.console.domain;

import java.util.List;

/**
 * One row of "what can be freed": a directory and the newest gate decision recorded for it (dry run or not).
 *
 * @param directory the directory as it is now
 * @param latest    the newest release request for exactly this path; null when none was ever asked
 */
public record FreeRow(VolumeDirectory directory, Release latest) {
    /**
     * @param directories the releasable directories, in the order to show
     * @param releases    release requests, newest first
     * @return one row per directory with its newest request
     */
    public static List<FreeRow> of(List<VolumeDirectory> directories, List<Release> releases) {
        return directories.stream().map(d -> new FreeRow(d, releases.stream()
                .filter(r -> d.path().equals(r.path())).findFirst().orElse(null))).toList();
    }

    /** @return the decision in one phrase: not evaluated yet, would free N, denied, … */
    public String decision() {
        if (latest == null) {
            return "not evaluated yet";
        }
        if (latest.denied()) {
            return "denied";
        }
        if ("passed".equals(latest.gate())) {
            return latest.dryRun() ? "would free " + latest.bytesText() + " (" + latest.fileCount() + " files)"
                    : latest.outcome();
        }
        return latest.outcome();
    }
}
