package io.stowage.store;

/** The store could not be reached or answered 5xx / 429 / timeout: retrying later may help. */
public class TransientStoreException extends StoreException {
    public TransientStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
