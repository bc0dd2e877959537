package io.stowage.verifier.domain;

/** What the store showed when one object was looked at (HEAD) or read in full. */
public sealed interface Observation {

    /**
     * The object is there.
     *
     * @param bytes  size in bytes (HEAD: Content-Length; full read: bytes received)
     * @param sha256 HEAD: the {@code sha256} user metadata, null when absent; full read: the recomputed digest
     */
    record Found(long bytes, String sha256) implements Observation {
    }

    /** The store has no object at the key. */
    record Missing() implements Observation {
    }

    /**
     * The store could not be asked (unreachable, 5xx after retries, refused request).
     *
     * @param reason one line, never a secret
     */
    record Unreachable(String reason) implements Observation {
    }
}
