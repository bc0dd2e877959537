package io.stowage.shardformat.write;

/** Asks the ledger whether a dataset revision is already sealed (the shard-builder holds no store rights). */
@FunctionalInterface
public interface RevisionLookup {
    /**
     * @return the revision's state in the ledger
     * @throws LedgerUnavailableException when the ledger cannot be reached or does not answer clearly: the caller
     *                                    must refuse rather than risk replacing a sealed revision
     */
    RevisionState stateOf(String dataset, String revision);
}
