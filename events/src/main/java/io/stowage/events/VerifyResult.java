package io.stowage.events;

/** Outcome of one verification. */
public enum VerifyResult {
    /** Size and SHA-256 match what was uploaded. */
    OK,
    /** Size or SHA-256 (metadata or recomputed) differs. */
    MISMATCH,
    /** The store has no object at the key. */
    MISSING,
    /** The store could not be read (transient); says nothing about the object. */
    ERROR
}
