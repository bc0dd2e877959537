package io.stowage.uploader.domain;

/** What happened to one {@link UploadTask}. */
public sealed interface UploadOutcome {

    /**
     * The object is at its key with the task's SHA-256.
     *
     * @param etag    ETag of the object, quotes stripped
     * @param skipped true when it was already there and nothing was sent
     */
    record Stored(String etag, boolean skipped) implements UploadOutcome {
    }

    /**
     * Nothing was left at the key.
     *
     * @param reason    one line naming the file and the problem
     * @param permanent true when retrying cannot help (changed or missing file, refused request)
     */
    record Failed(String reason, boolean permanent) implements UploadOutcome {
    }
}
