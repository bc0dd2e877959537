package io.stowage.events;

/** A record that cannot be parsed or fails validation; its message is the dead-letter reason. */
public class InvalidEventException extends RuntimeException {
    public InvalidEventException(String message) {
        super(message);
    }

    public InvalidEventException(String message, Throwable cause) {
        super(message, cause);
    }
}
