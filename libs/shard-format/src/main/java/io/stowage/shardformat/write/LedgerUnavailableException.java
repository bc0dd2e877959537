package io.stowage.shardformat.write;

/** The ledger could not say whether a revision is sealed, so nothing is sealed or sent; the message is one line. */
public class LedgerUnavailableException extends RuntimeException {
    /** @param message one line: the revision, and why the ledger gave no answer */
    public LedgerUnavailableException(String message) {
        super(message);
    }
}
