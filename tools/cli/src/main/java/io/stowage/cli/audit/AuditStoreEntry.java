package io.stowage.cli.audit;

/**
 * One object as one side of the store audit sees it: the ledger (its recorded upload) or the bucket (LIST + HEAD).
 *
 * @param key    object key in the bucket
 * @param bytes  size in bytes (the ledger's {@code bytes}, or HEAD's Content-Length)
 * @param sha256 SHA-256 hex (the ledger's {@code sha256}, or the object's {@code sha256} metadata); null when unknown
 */
public record AuditStoreEntry(String key, long bytes, String sha256) {
}
