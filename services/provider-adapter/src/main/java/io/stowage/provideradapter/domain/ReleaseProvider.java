package io.stowage.provideradapter.domain;

import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * Performs exactly one approved release on some infrastructure (the local disk): takes what the gate approved
 * ({@link ApprovedRelease}) and returns what was done, in two steps the {@link ReleaseHandler} journals between:
 * {@link #refusal} re-checks the directory without touching anything, {@link #finish} renames it aside and
 * deletes exactly the approved files.
 */
public interface ReleaseProvider {

    /** @return the provider name carried in {@code volume.released}, e.g. "local" */
    String name();

    /**
     * Re-checks the directory against everything the gate approved (the path rule, mount points, and the content
     * inventory) without touching anything.
     *
     * @return empty when it may be released, else a one-line reason ending "nothing deleted"; a directory that no
     *         longer exists is refused as "already gone"
     */
    Optional<String> refusal(ApprovedRelease approved);

    /**
     * Renames {@code approved.dir()} to {@code aside} (unless that was done before), deletes there exactly the files
     * whose relative path, bytes and SHA-256 are in the approved inventory, and keeps everything else (named in the
     * result). Idempotent: called again after a crash at any point it finishes the same release.
     *
     * @param aside the sibling hidden name from {@link ApprovedRelease#asideFor}
     * @return released with the approved file count and bytes when nothing is left, else refused with a one-line
     *         reason saying how many approved files were deleted and naming what was kept and where
     */
    ReleaseResult finish(ApprovedRelease approved, Path aside);

    /** Both steps without a journal (tests, tools): refusal, then finish under a fresh aside name. */
    default ReleaseResult release(ApprovedRelease approved) {
        Optional<String> refused = refusal(approved);
        if (refused.isPresent()) {
            return ReleaseResult.refused(refused.get());
        }
        return finish(approved, approved.asideFor(UUID.randomUUID().toString()));
    }
}
