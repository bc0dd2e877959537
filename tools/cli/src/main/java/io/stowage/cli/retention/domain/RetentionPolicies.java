package io.stowage.cli.retention.domain;

import io.stowage.events.RetentionDecided;

import java.util.Locale;

/**
 * Converts a retention policy between its event shape ({@link RetentionDecided.Policy}, the capsule's field names) and
 * the rules' {@link RetentionPolicy}. Pure.
 */
public final class RetentionPolicies {
    private RetentionPolicies() {
    }

    /**
     * @return the rules' policy
     * @throws IllegalArgumentException for a mode other than min/max, an interval or a TTL that is not an ISO-8601 duration, or a
     *                                  policy {@link RetentionPolicy} refuses; the message names the field
     */
    public static RetentionPolicy of(RetentionDecided.Policy p) {
        if (p == null) {
            return RetentionPolicy.NONE;
        }
        RetentionPolicy.Mode mode = p.mode() == null ? null : switch (p.mode().toLowerCase(Locale.ROOT)) {
            case "min" -> RetentionPolicy.Mode.MIN;
            case "max" -> RetentionPolicy.Mode.MAX;
            default -> throw new IllegalArgumentException("mode must be min or max, not '" + p.mode() + "'");
        };
        return new RetentionPolicy(p.keepLast(), p.keepBest(), p.metric(), mode, p.keepEvery(),
                RetentionPolicy.isoDuration("keepInterval", p.keepInterval()),
                RetentionPolicy.isoDuration("temporaryTtl", p.temporaryTtl()), p.tagsPin(),
                RetentionPolicy.isoDuration("coldAfter", p.coldAfter()), p.coldStorageClass());
    }

    /** @return the event shape of {@code p} */
    public static RetentionDecided.Policy fields(RetentionPolicy p) {
        return new RetentionDecided.Policy(p.keepLast(), p.keepBest(), p.metric(),
                p.mode() == null ? null : p.mode().name().toLowerCase(Locale.ROOT), p.keepEvery(),
                p.keepInterval() == null ? null : p.keepInterval().toString(),
                p.temporaryTtl() == null ? null : p.temporaryTtl().toString(), p.tagsPin(),
                p.coldAfter() == null ? null : p.coldAfter().toString(), p.coldStorageClass());
    }

    /**
     * @return the policy as {@code stowage retention apply} options, each preceded by a space (e.g.
     *         {@code " --keep-last 2 --no-tag-pins"}), so that a command printed for an operator (a held sweep's
     *         alert, a plan's hint) applies this very policy
     */
    public static String options(RetentionDecided.Policy p) {
        StringBuilder out = new StringBuilder();
        if (p.keepLast() != null) {
            out.append(" --keep-last ").append(p.keepLast());
        }
        if (p.keepBest() != null) {
            out.append(" --keep-best ").append(p.keepBest());
        }
        if (p.metric() != null) {
            out.append(" --metric ").append(p.metric());
        }
        if (p.mode() != null) {
            out.append(" --mode ").append(p.mode());
        }
        if (p.keepEvery() != null) {
            out.append(" --keep-every ").append(p.keepEvery());
        }
        if (p.keepInterval() != null) {
            out.append(" --keep-interval ").append(p.keepInterval());
        }
        if (p.temporaryTtl() != null) {
            out.append(" --temporary-ttl ").append(p.temporaryTtl());
        }
        if (Boolean.FALSE.equals(p.tagsPin())) {
            out.append(" --no-tag-pins");
        }
        if (p.coldAfter() != null) {
            out.append(" --cold-after ").append(p.coldAfter());
        }
        if (p.coldAfter() != null && p.coldStorageClass() != null) {
            out.append(" --cold-class ").append(p.coldStorageClass());
        }
        return out.toString();
    }
}
