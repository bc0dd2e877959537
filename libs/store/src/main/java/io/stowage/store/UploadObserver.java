package io.stowage.store;

/**
 * Told about the progress of multipart uploads (for progress reports and tests). Methods are
 * called on the uploading thread ({@link #beforePart}) or on the store client's completion thread
 * ({@link #partSent}); they must return quickly.
 */
public interface UploadObserver {
    /** Observes nothing. */
    UploadObserver NONE = new UploadObserver() {
    };

    /**
     * A multipart upload is about to send its parts.
     *
     * @param resumed   true when it continues an upload created by an earlier run (its parts already
     *                  confirmed are not sent again)
     * @param confirmed parts already confirmed by the store and the journal
     */
    default void started(String key, String uploadId, boolean resumed, int confirmed) {
    }

    /** Part {@code partNumber} is about to be read and sent. */
    default void beforePart(String key, String uploadId, int partNumber) {
    }

    /** The store confirmed part {@code partNumber} ({@code bytes} bytes) and it was recorded durably. */
    default void partSent(String key, String uploadId, int partNumber, long bytes) {
    }
}
