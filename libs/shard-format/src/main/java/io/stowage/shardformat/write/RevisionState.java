package io.stowage.shardformat.write;

/**
 * What the ledger knows of one dataset revision before the shard-builder seals it.
 *
 * @param sealed         true when the ledger recorded a {@code dataset.sealed} for the revision
 * @param manifestSha256 SHA-256 of the sealed revision's {@code manifest.json} (64 hex digits), null when not sealed
 */
public record RevisionState(boolean sealed, String manifestSha256) {
    /** @return the state of a revision the ledger has never sealed */
    public static RevisionState unsealed() {
        return new RevisionState(false, null);
    }
}
