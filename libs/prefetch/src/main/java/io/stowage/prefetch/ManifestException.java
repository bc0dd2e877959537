package io.stowage.prefetch;

/**
 * A dataset manifest or member manifest that is missing from the store, does not parse, names another dataset or
 * revision, or whose bytes do not have the SHA-256 recorded for them. The message is one line naming the key.
 */
public final class ManifestException extends RuntimeException {
    public ManifestException(String message) {
        super(message);
    }

    public ManifestException(String message, Throwable cause) {
        super(message, cause);
    }
}
