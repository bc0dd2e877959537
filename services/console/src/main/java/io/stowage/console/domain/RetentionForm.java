package io.stowage.console.domain;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A retention policy as the run page's form gives it: each rule as typed, blank for "not set". The console does not
 * read a run's capsule ({@code experiment.json} lives with the trainer), so the rules on the page are the whole policy;
 * a policy with no rule keeps every step. The provider-adapter checks the rules' meaning (a metric for keep-best,
 * ISO-8601 durations); this class checks only their form. Pure.
 *
 * @param keepLast     the number of newest verified steps to keep (a whole number ≥ 0), or blank
 * @param keepBest     the number of best steps to keep by {@code metric}, or blank
 * @param metric       the metric keep-best ranks by, e.g. {@code val_loss}, or blank
 * @param mode         {@code min} or {@code max}, or blank
 * @param keepEvery    keep every step whose number is a multiple of this (≥ 1), or blank
 * @param keepInterval keep one step per interval, {@code 6h} or ISO-8601 ({@code PT6H}), or blank
 * @param temporaryTtl how long steps tagged temporary are kept, {@code 7d} or ISO-8601 ({@code P7D}), or blank
 */
public record RetentionForm(String keepLast, String keepBest, String metric, String mode, String keepEvery,
                            String keepInterval, String temporaryTtl) {
    public RetentionForm {
        keepLast = clean(keepLast);
        keepBest = clean(keepBest);
        metric = clean(metric);
        mode = clean(mode);
        keepEvery = clean(keepEvery);
        keepInterval = clean(keepInterval);
        temporaryTtl = clean(temporaryTtl);
    }

    /** @return true when no rule is set (the page then shows the form without a plan) */
    public boolean empty() {
        return keepLast.isEmpty() && keepBest.isEmpty() && metric.isEmpty() && mode.isEmpty() && keepEvery.isEmpty()
                && keepInterval.isEmpty() && temporaryTtl.isEmpty();
    }

    /**
     * @return the policy in the provider-adapter's field names ({@code RetentionDecided.Policy}), only the rules set;
     *         whole numbers as {@link Integer}, the rest as typed ({@code mode} lower-cased)
     * @throws IllegalArgumentException naming the field, for a count that is not a whole number in range or a mode
     *                                  other than min or max
     */
    public Map<String, Object> policy() {
        Map<String, Object> policy = new LinkedHashMap<>();
        count(policy, "keepLast", keepLast, 0);
        count(policy, "keepBest", keepBest, 0);
        if (!metric.isEmpty()) {
            policy.put("metric", metric);
        }
        if (!mode.isEmpty()) {
            String m = mode.toLowerCase(Locale.ROOT);
            if (!m.equals("min") && !m.equals("max")) {
                throw new IllegalArgumentException("mode must be min or max, not '" + mode + "'");
            }
            policy.put("mode", m);
        }
        count(policy, "keepEvery", keepEvery, 1);
        if (!keepInterval.isEmpty()) {
            policy.put("keepInterval", iso(keepInterval));
        }
        if (!temporaryTtl.isEmpty()) {
            policy.put("temporaryTtl", iso(temporaryTtl));
        }
        return policy;
    }

    /** @return the rules set, as a query string for a link to this plan ({@code keepLast=2&metric=val_loss}) */
    public String query() {
        StringBuilder q = new StringBuilder();
        append(q, "keepLast", keepLast);
        append(q, "keepBest", keepBest);
        append(q, "metric", metric);
        append(q, "mode", mode);
        append(q, "keepEvery", keepEvery);
        append(q, "keepInterval", keepInterval);
        append(q, "temporaryTtl", temporaryTtl);
        return q.toString();
    }

    /**
     * @return {@code value} as ISO-8601 when it is written the short way the command line takes ({@code 6h}, {@code 7d},
     *         {@code 90m}, {@code 30s}); otherwise as typed, for the provider-adapter to read as ISO-8601 or refuse
     */
    static String iso(String value) {
        if (value.matches("\\d{1,9}\\s*[smhd]")) {
            return java.time.Duration.ofSeconds(LinkLifetime.seconds(value)).toString();
        }
        return value;
    }

    private static void count(Map<String, Object> policy, String field, String value, int min) {
        if (value.isEmpty()) {
            return;
        }
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be a whole number, not '" + value + "'");
        }
        if (n < min) {
            throw new IllegalArgumentException(field + " must be at least " + min + ", not " + n);
        }
        policy.put(field, n);
    }

    private static void append(StringBuilder q, String field, String value) {
        if (!value.isEmpty()) {
            q.append(q.isEmpty() ? "" : "&").append(field).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    private static String clean(String value) {
        return value == null ? "" : value.strip();
    }
}
