package io.stowage.messaging;

/**
 * The failure a record is nacked with so that the channel's {@code dead-letter-queue} failure strategy writes it to
 * {@code <topic>.dlq}; its message (one line) becomes the record's {@code dead-letter-reason} header. No stack trace.
 */
public final class DeadLetterReason extends RuntimeException {
    /** @param reason one line, e.g. {@code permanent upload failure (1 of 2 objects): 404 NoSuchBucket} */
    public DeadLetterReason(String reason) {
        super(reason, null, false, false);
    }
}
