package io.stowage.cli.retention.domain;

/**
 * Why retention keeps a step. The first group protects a step whatever the policy; the second are the policy's rules.
 */
public enum KeepReason {
    /** The step the run's {@code latest.json} names (a resume reads it). */
    LATEST("latest"),
    /** The newest verified step of the run. */
    NEWEST_VERIFIED("newest-verified"),
    /** An operator's pin. */
    PINNED("pinned"),
    /** A model revision names it (was promoted from it): kept whatever the pins say, an unpin included. */
    PROMOTED("promoted"),
    /** Tagged best (counts as a pin unless the policy says otherwise). */
    BEST_TAG("best-tag"),
    /** A key checkpoint (counts as a pin unless the policy says otherwise). */
    KEY("key"),
    /** Not verified yet: its upload or verification may still be running. */
    UNVERIFIED("unverified"),
    /** A newer step that would replace it is not verified yet. */
    REPLACEMENT_UNVERIFIED("replacement-unverified"),
    /** A live fetch lease holds it. */
    LEASED("leased"),
    /** No publish time: a temporary step's TTL cannot be measured, or a keep-interval window cannot be chosen. */
    UNKNOWN_AGE("unknown-age"),
    /** The policy has no rule that applies to this step (unclear ⇒ keep). */
    NO_RULE("no-rule"),
    /** One of the N newest verified steps. */
    KEEP_LAST("keep-last"),
    /** One of the K best verified steps by the policy's metric. */
    KEEP_BEST("keep-best"),
    /** Its number is a multiple of the policy's M. */
    KEEP_EVERY("keep-every"),
    /** The highest-numbered verified step published in its keep-interval window (windows of the policy's interval). */
    KEEP_INTERVAL("keep-interval"),
    /** Temporary, and younger than the policy's TTL. */
    TTL("ttl");

    private final String label;

    KeepReason(String label) {
        this.label = label;
    }

    /** @return the kebab-case name printed in plans */
    public String label() {
        return label;
    }

    /** @return true for a reason that no policy can override */
    public boolean protects() {
        return ordinal() <= NO_RULE.ordinal();
    }
}
