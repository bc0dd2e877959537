package io.stowage.store;

/** Base of every failure an object store operation reports; unchecked, so callers choose where to handle it. */
public abstract class StoreException extends RuntimeException {
    protected StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
