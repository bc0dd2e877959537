package io.stowage.cli.retention.domain;

import java.time.Duration;

/**
 * A run's retention policy: which stored checkpoint steps its rules keep. Every rule is optional (null = off); the
 * rules keep the union of what each keeps, and a policy with no rule keeps every step. Comes from the run's capsule
 * ({@code experiment.json}, key {@code retention}) overridden field by field by the command line.
 *
 * @param keepLast     keep the N newest verified steps (N ≥ 1); null = off
 * @param keepBest     keep the K verified steps best by {@code metric} (K ≥ 1); null = off
 * @param metric       the metric keep-best ranks by; required with keepBest
 * @param mode         {@link Mode#MIN} (lower is better, e.g. a loss) or {@link Mode#MAX}; required with keepBest
 * @param keepEvery    keep every step whose number is a multiple of M (M ≥ 1); null = off
 * @param temporaryTtl a step tagged {@value #TEMPORARY_TAG} may expire once it is older than this (publish time);
 *                     null = temporary steps are treated like any other
 * @param tagsPin      the tag {@value #BEST_TAG} and key checkpoints count as pins; true unless the policy says
 *                     otherwise (null = true)
 */
public record RetentionPolicy(Integer keepLast, Integer keepBest, String metric, Mode mode, Integer keepEvery,
                              Duration temporaryTtl, Boolean tagsPin) {
    /** The tag that marks a step as temporary (its TTL applies). */
    public static final String TEMPORARY_TAG = "temporary";
    /** The tag that marks a step as the best; a pin unless {@code tagsPin} is false. */
    public static final String BEST_TAG = "best";

    /** How keep-best ranks a metric. */
    public enum Mode { MIN, MAX }

    /** A policy with no rule: it keeps every step. */
    public static final RetentionPolicy NONE = new RetentionPolicy(null, null, null, null, null, null, null);

    /**
     * @throws IllegalArgumentException for a count below 1, keep-best without a metric or a mode, or a TTL that is
     *                                  not positive; the message names the field
     */
    public RetentionPolicy {
        positive("keepLast", keepLast);
        positive("keepBest", keepBest);
        positive("keepEvery", keepEvery);
        if (keepBest != null && (metric == null || metric.isBlank() || mode == null)) {
            throw new IllegalArgumentException("keepBest needs a metric and a mode (min or max)");
        }
        if (temporaryTtl != null && (temporaryTtl.isNegative() || temporaryTtl.isZero())) {
            throw new IllegalArgumentException("temporaryTtl must be positive, not " + temporaryTtl);
        }
    }

    /** @return true when best-tagged steps and key checkpoints count as pins */
    public boolean tagsArePins() {
        return tagsPin == null || tagsPin;
    }

    /** @return true when at least one rule that selects steps by count or number is on (keep-last, keep-best, keep-every) */
    public boolean hasCountRule() {
        return keepLast != null || keepBest != null || keepEvery != null;
    }

    /** @return this policy with every non-null field of {@code override} replacing its own */
    public RetentionPolicy with(RetentionPolicy override) {
        return new RetentionPolicy(pick(override.keepLast, keepLast), pick(override.keepBest, keepBest),
                pick(override.metric, metric), pick(override.mode, mode), pick(override.keepEvery, keepEvery),
                pick(override.temporaryTtl, temporaryTtl), pick(override.tagsPin, tagsPin));
    }

    private static <T> T pick(T preferred, T fallback) {
        return preferred != null ? preferred : fallback;
    }

    private static void positive(String field, Integer value) {
        if (value != null && value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, not " + value);
        }
    }
}
