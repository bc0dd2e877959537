package io.stowage.gatekeeper.domain;

/**
 * Every check the gate makes, with the condition it belongs to (1 to 5 as in docs/design/contract.md,
 * "The gate") and the stable code that a {@link io.stowage.events.FailedCondition} carries.
 * Condition 0 means that no evidence could be read at all (the ledger was unreachable or had not
 * yet stored the request and every evidence record before it) or that the request was too old to
 * evaluate: the gate fails closed before any of the five conditions is evaluated.
 */
public enum GateCheck {
    LEDGER_UNAVAILABLE(0, "ledger-unavailable", "the ledger could not be read"),
    LEDGER_BEHIND(0, "ledger-behind", "the ledger has not stored the request event or every evidence record before it"),
    STALE_REQUEST(0, "stale-request", "request is older than stowage.gatekeeper.max-request-age"),
    NOT_SEALED(1, "not-sealed", "asset has no published manifest"),
    UNSUPPORTED_KIND(1, "unsupported-kind", "asset kind the gate cannot check"),
    MANIFEST_UNREADABLE(1, "manifest-unreadable", "local manifest cannot be read or parsed"),
    MANIFEST_CHANGED(1, "manifest-changed", "local manifest differs from its published SHA-256"),
    OBJECT_MISSING(1, "object-missing", "no object in the primary store"),
    OBJECT_MISMATCH(1, "object-mismatch", "primary object differs in bytes or SHA-256"),
    HEAD_NOT_OK(1, "head-not-ok", "newest HEAD of the primary object is not OK"),
    STORE_OBJECT_GONE(1, "store-object-gone", "primary object no longer in the store at decision time"),
    STORE_OBJECT_CHANGED(1, "store-object-changed", "primary object in the store differs in bytes or SHA-256 metadata at decision time"),
    STORE_UNREACHABLE(1, "store-unreachable", "the store could not be asked about an object at decision time"),
    NO_FULL_READ(2, "no-full-read", "no shard or checkpoint file was re-read in full with OK"),
    BAD_EVIDENCE(2, "bad-evidence", "newest verification of an object is MISMATCH, MISSING or ERROR, or a dead letter about the asset is outstanding"),
    DATASET_METADATA_MISSING(3, "dataset-metadata-missing", "dataset lacks a revision or a licence/source"),
    PROVENANCE_MISSING(3, "provenance-missing", "checkpoint lacks code commit, config hash or data manifest hash"),
    MODEL_METADATA_MISSING(3, "model-metadata-missing", "model revision lacks a licence or a source"),
    NO_REPLICA_COPY(4, "no-replica-copy", "key checkpoint file without a verified replica copy"),
    NOT_NORMALISED(5, "not-normalised", "path is not absolute and normalised"),
    PROTECTED_ROOT(5, "protected-root", "path is / or a protected root or an ancestor of one"),
    HOME_DIRECTORY(5, "home-directory", "path is a home directory or an ancestor of one"),
    VOLUME_ROOT(5, "volume-root", "path is a volume root or an ancestor of one"),
    OUTSIDE_VOLUME_ROOTS(5, "outside-volume-roots", "path is outside every configured volume root"),
    ROOT_BY_ANOTHER_PATH(5, "root-by-another-path", "path is the same directory as a volume, protected or home root"),
    NOT_A_DIRECTORY(5, "not-a-directory", "path is not an existing directory"),
    SYMLINK_IN_PATH(5, "symlink-in-path", "path goes through a symlink"),
    SYMLINK(5, "symlink", "symlink under the directory"),
    SPECIAL_FILE(5, "special-file", "entry that is neither file nor directory"),
    NO_ASSETS(5, "no-assets", "the ledger knows no asset touching the directory"),
    UNACCOUNTED_FILE(5, "unaccounted-file", "file in no manifest of an asset"),
    CHANGED_FILE(5, "changed-file", "file differs in bytes or SHA-256 from its manifest entry"),
    CHANGED_DURING_GATE(5, "changed-during-gate", "directory changed while the gate read it"),
    UNREADABLE(5, "unreadable", "directory or file cannot be read");

    private final int condition;
    private final String code;
    private final String label;

    GateCheck(int condition, String code, String label) {
        this.condition = condition;
        this.code = code;
        this.label = label;
    }

    /**
     * @return the check whose {@link #code()} is {@code code}
     * @throws IllegalArgumentException when no check has that code
     */
    public static GateCheck byCode(String code) {
        for (GateCheck check : values()) {
            if (check.code.equals(code)) {
                return check;
            }
        }
        throw new IllegalArgumentException("no gate check with code " + code);
    }

    /** @return 0 (no evidence) or 1 to 5 */
    public int condition() {
        return condition;
    }

    /** @return the stable machine-readable code */
    public String code() {
        return code;
    }

    /** @return the human start of the detail line */
    public String label() {
        return label;
    }
}
