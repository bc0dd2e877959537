package io.stowage.cli.audit;

import java.util.List;

/**
 * The lifecycle audit of one bucket, printed by {@code stowage audit lifecycle} as a summary line and one line per
 * finding, or as JSON with {@code --json}.
 *
 * @param store     logical store name ("primary", "replica")
 * @param bucket    the bucket read
 * @param supported false when the store does not implement lifecycle configuration (it then runs no rules)
 * @param rules     rules the bucket has (enabled or not)
 * @param findings  the warnings, in rule order
 */
public record LifecycleReport(String store, String bucket, boolean supported, int rules, List<Finding> findings) {

    /** What a rule could remove. */
    public enum Kind {
        /** Expiration (Days or Date) over a kept prefix or the whole bucket */
        EXPIRATION,
        /** NoncurrentVersionExpiration over a kept prefix or the whole bucket */
        NONCURRENT_EXPIRATION,
        /** AbortIncompleteMultipartUpload sooner than the uploader's resume window */
        ABORT_BEFORE_RESUME_WINDOW
    }

    /**
     * @param rule   the rule's ID
     * @param kind   what it could remove
     * @param prefix the rule's prefix ("" = whole bucket)
     * @param detail one sentence for a terminal
     */
    public record Finding(String rule, Kind kind, String prefix, String detail) {
    }

    /** @return true when no rule could remove what Stowage keeps */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** @return e.g. {@code primary (bucket b): 2 lifecycle rules, 1 warning} or {@code … no lifecycle support} */
    public String summary() {
        if (!supported) {
            return store + " (bucket " + bucket + "): the store has no lifecycle support: no rules run";
        }
        return String.format("%s (bucket %s): %d lifecycle rules, %d warnings", store, bucket, rules, findings.size());
    }

    /** @return {@code primary: rule 'x': <detail>} */
    public String line(Finding f) {
        return store + ": rule '" + f.rule() + "': " + f.detail();
    }
}
