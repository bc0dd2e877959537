package io.stowage.cli.audit;

/**
 * One disagreement between the ledger and a bucket, found by {@link AuditStoreReconciler}.
 *
 * @param problem what is wrong
 * @param key     the object key
 * @param ledger  what the ledger says ("4096 bytes", a SHA-256); null for {@link Problem#UNKNOWN}
 * @param store   what the bucket says; null for {@link Problem#MISSING}, "none" when the object has no sha256 metadata
 */
public record AuditStoreFinding(Problem problem, String key, String ledger, String store) {

    /** The kinds of disagreement. */
    enum Problem {
        /** the ledger knows the object, the bucket does not hold it */
        MISSING,
        /** the bucket holds an object the ledger does not know */
        UNKNOWN,
        /** sizes differ */
        SIZE,
        /** the ledger's SHA-256 differs from the object's sha256 metadata (or the object has none) */
        SHA256
    }

    /** @return one line for a terminal, e.g. {@code primary: size disagrees for datasets/…: ledger 4096 bytes, store 4095 bytes} */
    public String line(String storeName) {
        return switch (problem) {
            case MISSING -> storeName + ": missing from the store: " + key;
            case UNKNOWN -> storeName + ": unknown to the ledger: " + key;
            case SIZE -> storeName + ": size disagrees for " + key + ": ledger " + ledger + " bytes, store " + store + " bytes";
            case SHA256 -> storeName + ": sha256 disagrees for " + key + ": ledger " + ledger + ", store " + store;
        };
    }
}
