package io.stowage.provideradapter.domain;

import java.nio.file.Path;

/**
 * Performs exactly one approved release on some infrastructure (local disk now; RunPod volumes
 * later): takes the directory the gate approved and the fingerprint it saw, returns what was done.
 */
public interface ReleaseProvider {

    /** @return the provider name carried in {@code volume.released}, e.g. "local" */
    String name();

    /**
     * Re-checks the directory and, only if it is exactly as the gate saw it, releases it.
     *
     * @param dir                 absolute, normalised directory approved by the gate
     * @param expectedFingerprint {@link io.stowage.events.DirectoryFingerprint} SHA-256 from {@code gate.passed}
     * @return released with file count and bytes, or refused with a one-line reason; never throws for
     *         a refusal. A directory that no longer exists is refused as "already gone" (the
     *         idempotent answer to a redelivered {@code gate.passed}).
     */
    ReleaseResult release(Path dir, String expectedFingerprint);

    /**
     * Re-checks the directory against everything the gate approved (structure and, where the provider
     * can, a fresh content inventory) and, only if it matches, releases exactly that directory.
     * The default checks the fingerprint only; the local-disk provider re-hashes every file.
     *
     * @return released with file count and bytes, or refused with a one-line reason naming the difference
     */
    default ReleaseResult release(ApprovedRelease approved) {
        return release(approved.dir(), approved.fingerprint());
    }
}
