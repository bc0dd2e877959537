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
 * @param keepInterval keep one step per time window of this length: the run's timeline is cut into consecutive
 *                     windows of this length aligned to the epoch (1970-01-01T00:00:00Z), each step falls in a window
 *                     by its publish time, and in each window the newest verified step (highest step number) is kept;
 *                     at least 1 s; null = off
 * @param temporaryTtl a step tagged {@value #TEMPORARY_TAG} may expire once it is older than this (publish time);
 *                     null = temporary steps are treated like any other
 * @param tagsPin      the tag {@value #BEST_TAG} and key checkpoints count as pins; true unless the policy says
 *                     otherwise (null = true)
 * @param coldAfter    a kept step older than this (publish time) that no resume is likely to read (not the latest,
 *                     the newest verified, a leased, an unverified step or one whose replacement is unverified) belongs
 *                     in the cheaper storage class {@code coldStorageClass}; null = off. The plan reports it; nothing
 *                     moves objects yet (docs/retention.md "Storage classes")
 * @param coldStorageClass the S3 storage class those steps belong in, e.g. {@value #DEFAULT_COLD_CLASS} (S3
 *                     Standard-IA, Cloudflare R2 Infrequent Access); upper-case letters and '_', not {@code STANDARD};
 *                     null = {@value #DEFAULT_COLD_CLASS} when {@code coldAfter} is set
 */
public record RetentionPolicy(Integer keepLast, Integer keepBest, String metric, Mode mode, Integer keepEvery,
                              Duration keepInterval, Duration temporaryTtl, Boolean tagsPin, Duration coldAfter,
                              String coldStorageClass) {
    /** The cheaper storage class when a policy names none: S3 Standard-IA, R2 Infrequent Access. */
    public static final String DEFAULT_COLD_CLASS = "STANDARD_IA";
    /** The tag that marks a step as temporary (its TTL applies). */
    public static final String TEMPORARY_TAG = "temporary";
    /** The tag that marks a step as the best; a pin unless {@code tagsPin} is false. */
    public static final String BEST_TAG = "best";

    /** How keep-best ranks a metric. */
    public enum Mode { MIN, MAX }

    /** A policy with no rule: it keeps every step. */
    public static final RetentionPolicy NONE = new RetentionPolicy(null, null, null, null, null, null, null, null, null,
            null);

    /**
     * @throws IllegalArgumentException for a count below 1, keep-best without a metric or a mode, an interval under 1 s
     *                                  or a TTL that is not positive; the message names the field
     */
    public RetentionPolicy {
        positive("keepLast", keepLast);
        positive("keepBest", keepBest);
        positive("keepEvery", keepEvery);
        if (keepBest != null && (metric == null || metric.isBlank() || mode == null)) {
            throw new IllegalArgumentException("keepBest needs a metric and a mode (min or max)");
        }
        if (keepInterval != null && keepInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            // windows are counted in milliseconds: a shorter interval has no meaningful window
            throw new IllegalArgumentException("keepInterval must be at least 1 second, not " + keepInterval);
        }
        positive("temporaryTtl", temporaryTtl);
        positive("coldAfter", coldAfter);
        if (coldStorageClass != null && (!coldStorageClass.matches("[A-Z][A-Z_]{0,63}") || coldStorageClass.equals("STANDARD"))) {
            throw new IllegalArgumentException("coldStorageClass must be an S3 storage class such as STANDARD_IA (upper-case,"
                    + " not STANDARD), not '" + coldStorageClass + "'");
        }
    }

    /** A policy without storage classes (coldAfter and coldStorageClass null). */
    public RetentionPolicy(Integer keepLast, Integer keepBest, String metric, Mode mode, Integer keepEvery,
                           Duration keepInterval, Duration temporaryTtl, Boolean tagsPin) {
        this(keepLast, keepBest, metric, mode, keepEvery, keepInterval, temporaryTtl, tagsPin, null, null);
    }

    /** @return the storage class old kept steps belong in; null when {@code coldAfter} is off */
    public String coldClass() {
        return coldAfter == null ? null : coldStorageClass != null ? coldStorageClass : DEFAULT_COLD_CLASS;
    }

    /**
     * Parses an ISO-8601 duration field of a policy (capsule or event), e.g. {@code PT6H} or {@code P7D}.
     *
     * @param field the field's name, for the message
     * @param text  the field's text; null gives null
     * @throws IllegalArgumentException naming the field, the value and the expected form
     */
    public static Duration isoDuration(String field, String text) {
        try {
            return text == null ? null : Duration.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(field + " '" + text + "' is not an ISO-8601 duration (e.g. \"PT6H\", \"P7D\")");
        }
    }

    /**
     * A policy without the keep-interval rule (keepInterval null); the other fields as in the canonical constructor.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public RetentionPolicy(Integer keepLast, Integer keepBest, String metric, Mode mode, Integer keepEvery,
                           Duration temporaryTtl, Boolean tagsPin) {
        this(keepLast, keepBest, metric, mode, keepEvery, null, temporaryTtl, tagsPin);
    }

    /** @return true when best-tagged steps and key checkpoints count as pins */
    public boolean tagsArePins() {
        return tagsPin == null || tagsPin;
    }

    /**
     * @return true when at least one rule that selects steps by count, number or time window is on (keep-last,
     *         keep-best, keep-every, keep-interval)
     */
    public boolean hasCountRule() {
        return keepLast != null || keepBest != null || keepEvery != null || keepInterval != null;
    }

    /**
     * @return true when at least one rule can expire a step: a count, number or window rule ({@link #hasCountRule()})
     *         or a TTL for temporary steps. A policy without one keeps every step.
     */
    public boolean hasRule() {
        return hasCountRule() || temporaryTtl != null;
    }

    /** @return this policy with every non-null field of {@code override} replacing its own */
    public RetentionPolicy with(RetentionPolicy override) {
        return new RetentionPolicy(pick(override.keepLast, keepLast), pick(override.keepBest, keepBest),
                pick(override.metric, metric), pick(override.mode, mode), pick(override.keepEvery, keepEvery),
                pick(override.keepInterval, keepInterval), pick(override.temporaryTtl, temporaryTtl), pick(override.tagsPin, tagsPin),
                pick(override.coldAfter, coldAfter), pick(override.coldStorageClass, coldStorageClass));
    }

    private static <T> T pick(T preferred, T fallback) {
        return preferred != null ? preferred : fallback;
    }

    private static void positive(String field, Integer value) {
        if (value != null && value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, not " + value);
        }
    }

    private static void positive(String field, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException(field + " must be positive, not " + value);
        }
    }
}
