package io.stowage.ledger.domain;

/**
 * One stored row of the chain as read back from the ledger.
 *
 * @param seq       its place in the chain, 1 for the first row
 * @param event     the row's content
 * @param chainHash the link stored with it (64 hex digits)
 */
public record ChainEntry(long seq, StoredEvent event, String chainHash) {
}
