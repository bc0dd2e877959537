package io.stowage.cli.audit;

import java.util.List;

/**
 * The store audit of one bucket: how many objects each side holds and what disagrees; printed by
 * {@code stowage audit store} as a summary line and one line per finding, or as JSON with {@code --json}.
 *
 * @param store         logical store name ("primary", "replica")
 * @param bucket        the bucket listed
 * @param objects       objects in the bucket
 * @param ledgerObjects objects the ledger records for this store and bucket
 * @param findings      the disagreements, in key order
 * @param uncompared    objects in the bucket the ledger never records and the audit does not compare (runs'
 *                      {@code latest.json} pointers, the storage root manifest); counted in {@code objects}
 */
public record AuditStoreReport(String store, String bucket, int objects, int ledgerObjects, List<AuditStoreFinding> findings,
                               int uncompared) {

    /** A report of a bucket holding no object outside the comparison. */
    public AuditStoreReport(String store, String bucket, int objects, int ledgerObjects, List<AuditStoreFinding> findings) {
        this(store, bucket, objects, ledgerObjects, findings, 0);
    }

    /** @return the number of findings of {@code problem} */
    long count(AuditStoreFinding.Problem problem) {
        return findings.stream().filter(f -> f.problem() == problem).count();
    }

    /** @return true when nothing disagrees */
    public boolean clean() {
        return findings.isEmpty();
    }

    /**
     * @return e.g. {@code primary: 42 objects in the bucket, 43 in the ledger: 1 missing from the bucket, 0 unknown to
     *         the ledger, 0 disagree} (disagree = size or SHA-256): both counts, so "missing" reads against the ledger's
     */
    public String summary() {
        long disagree = count(AuditStoreFinding.Problem.SIZE) + count(AuditStoreFinding.Problem.SHA256);
        return String.format("%s: %d objects in the bucket%s, %d in the ledger: %d missing from the bucket, %d unknown"
                        + " to the ledger, %d disagree", store, objects, uncompared == 0 ? ""
                        : " (" + uncompared + " of them run pointers or the storage root manifest, not in the ledger)",
                ledgerObjects,
                count(AuditStoreFinding.Problem.MISSING), count(AuditStoreFinding.Problem.UNKNOWN), disagree);
    }
}
