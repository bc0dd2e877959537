package io.stowage.shardformat.write;

/**
 * A dataset revision is already sealed with other content: a sealed revision is immutable, so the new content is
 * refused before any event is sent (HTTP 409). The message is one line naming the revision and both SHA-256s.
 */
public class RevisionSealedException extends RuntimeException {
    /** @param message one line naming the revision */
    public RevisionSealedException(String message) {
        super(message);
    }
}
