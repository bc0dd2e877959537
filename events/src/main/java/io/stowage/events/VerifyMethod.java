package io.stowage.events;

/** How an object was verified. */
public enum VerifyMethod {
    /** HEAD: exists, size and SHA-256 metadata match. */
    HEAD,
    /** Downloaded in full and SHA-256 recomputed. */
    FULL_READ
}
