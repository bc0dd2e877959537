package io.stowage.cli.audit;

import io.stowage.store.LifecycleRule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides, for one bucket's lifecycle rules, which could remove what Stowage keeps: an enabled rule that expires
 * objects (or their noncurrent versions) where its prefix overlaps a kept prefix or has no prefix, and an enabled
 * abort of incomplete multipart uploads sooner than the uploader's resume window. Produces a {@link LifecycleReport}.
 * A tag or size condition does not lift a warning (the rule still applies to some kept keys); a transition (a change
 * of storage class) removes nothing and is not reported.
 */
public final class LifecycleAudit {
    /**
     * The prefixes whose objects Stowage keeps until its own retention says otherwise: steps, datasets, model
     * revisions, and the ledger's and baselines' archives.
     */
    public static final List<String> KEPT_PREFIXES = List.of("checkpoints/", "datasets/", "models/", "archives/",
            "ledger/");

    private LifecycleAudit() {
    }

    /**
     * @param rules        the bucket's rules, or empty when the store has no lifecycle support (then clean)
     * @param resumeWindow how long the uploader may come back to an incomplete upload (its
     *                     {@code stowage.uploader.abandon-uploads-after}, default 24 h)
     * @return the report; {@code findings} in rule order
     */
    public static LifecycleReport audit(String store, String bucket, Optional<List<LifecycleRule>> rules,
                                        Duration resumeWindow) {
        if (rules.isEmpty()) {
            return new LifecycleReport(store, bucket, false, 0, List.of());
        }
        List<LifecycleReport.Finding> findings = new ArrayList<>();
        for (LifecycleRule rule : rules.get()) {
            if (rule.enabled()) {
                findings.addAll(check(rule, resumeWindow));
            }
        }
        return new LifecycleReport(store, bucket, true, rules.get().size(), findings);
    }

    private static List<LifecycleReport.Finding> check(LifecycleRule rule, Duration resumeWindow) {
        List<LifecycleReport.Finding> findings = new ArrayList<>();
        List<String> kept = KEPT_PREFIXES.stream().filter(k -> overlaps(rule.prefix(), k)).toList();
        String where = rule.prefix().isEmpty() ? "the whole bucket" : "prefix '" + rule.prefix() + "'";
        String narrowed = rule.narrowed() ? " (narrowed by a tag or size condition)" : "";
        if (rule.expiresObjects() && !kept.isEmpty()) {
            String after = rule.expirationDays() != null ? rule.expirationDays() + " days" : "date " + rule.expirationDate();
            findings.add(new LifecycleReport.Finding(rule.id(), LifecycleReport.Kind.EXPIRATION, rule.prefix(),
                    "expires objects of " + where + narrowed + " after " + after + ": could delete what retention keeps under "
                            + String.join(", ", kept)));
        }
        if (rule.noncurrentExpirationDays() != null && !kept.isEmpty()) {
            findings.add(new LifecycleReport.Finding(rule.id(), LifecycleReport.Kind.NONCURRENT_EXPIRATION, rule.prefix(),
                    "expires noncurrent versions of " + where + narrowed + " after " + rule.noncurrentExpirationDays()
                            + " days under " + String.join(", ", kept)));
        }
        Integer abort = rule.abortIncompleteAfterDays();
        if (abort != null && Duration.ofDays(abort).compareTo(resumeWindow) < 0) {
            findings.add(new LifecycleReport.Finding(rule.id(), LifecycleReport.Kind.ABORT_BEFORE_RESUME_WINDOW,
                    rule.prefix(), "aborts incomplete multipart uploads of " + where + " after " + abort
                            + " days, sooner than the uploader's resume window " + resumeWindow
                            + ": an interrupted upload could not be resumed"));
        }
        return findings;
    }

    /** @return whether some key can start with both prefixes ("" overlaps everything) */
    static boolean overlaps(String rulePrefix, String kept) {
        return rulePrefix.startsWith(kept) || kept.startsWith(rulePrefix);
    }
}
