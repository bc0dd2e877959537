package io.stowage.verifier.ledgerclient;

/** The ledger's HTTP API could not be asked or gave no usable answer; the message names the request, never a secret. */
public class LedgerUnavailableException extends RuntimeException {
    /** @param cause the I/O failure, or null for a bad answer */
    public LedgerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
