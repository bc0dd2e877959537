package io.stowage.store;

/**
 * A store cannot be used at all: its endpoint does not answer, its bucket does not exist, or it
 * refuses the credentials. Thrown at start-up by a probe; the message is one line naming the store,
 * endpoint and bucket (never the secret).
 */
public class StoreAccessException extends PermanentStoreException {
    public StoreAccessException(String message, Throwable cause) {
        super(message, cause);
    }
}
