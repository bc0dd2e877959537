package io.stowage.store;

/** The store refused the request (4xx other than 404 and 429: credentials, bucket, request shape): retrying cannot help. */
public class PermanentStoreException extends StoreException {
    public PermanentStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
