package io.stowage.store;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Write side of one bucket of an object store: put a local file at a content address, HEAD it,
 * and abort leftover multipart uploads. It cannot delete an object, which is all an uploader
 * needs. Methods block the calling thread; call them from a worker thread.
 */
public interface ObjectWriter {

    /** @return the logical store name ("primary", "replica") of {@link StoreConfig#name()} */
    String storeName();

    /** @return the bucket this writer writes */
    String bucket();

    /**
     * Uploads {@code file} to {@code key}, with {@code sha256} as user metadata. The bytes sent are
     * hashed as they are read; if they are not {@code bytes} long with SHA-256 {@code sha256} (the
     * file changed since it was described), nothing becomes visible at {@code key} and
     * {@link SourceChangedException} is thrown. Small files go up in one PUT, large ones as a
     * multipart upload.
     *
     * @param bytes    expected size in bytes
     * @param sha256   expected SHA-256, 64 lower-case hex digits
     * @param metadata extra user metadata (names without the {@code x-amz-meta-} prefix)
     * @throws SourceChangedException  when the file's size or content differs from the expectation
     * @throws java.io.UncheckedIOException when the file cannot be read (e.g. it is gone)
     * @throws TransientStoreException when the store cannot be reached or answers 5xx / 429
     * @throws PermanentStoreException when the store refuses the upload
     */
    PutResult put(String key, Path file, long bytes, String sha256, Map<String, String> metadata);

    /**
     * Uploads a small file to {@code key} only if the key still holds what the caller last saw there: the object with
     * ETag {@code expectedEtag} (quotes stripped, as {@link ObjectHead#etag()} gives it), or no object at all when
     * {@code expectedEtag} is null. One PUT with the store's conditional-write headers ({@code If-Match},
     * {@code If-None-Match: *}), so that of two writers that read the same object, the second to write is refused
     * instead of replacing the first's object unseen. Otherwise as {@link #put}.
     *
     * @param expectedEtag the ETag of the object the caller read at {@code key}, or null when it found none
     * @throws PreconditionFailedException when the object at {@code key} changed since: this request wrote nothing
     *         (through {@link RetryingObjectWriter}, an earlier attempt whose answer was lost may have written it)
     * @throws UnsupportedOperationException when the store does not implement conditional writes (HTTP 501, or the S3
     *         error code {@code NotImplemented} with another status)
     * @throws IllegalArgumentException when the file is too large for one PUT (at or above the multipart threshold)
     */
    PutResult putIfUnchanged(String key, Path file, long bytes, String sha256, Map<String, String> metadata,
                             String expectedEtag);

    /** As {@link ObjectReader#head(String)}. */
    Optional<ObjectHead> head(String key);

    /**
     * Aborts every incomplete multipart upload of exactly {@code key} (left by a crashed uploader).
     *
     * @return the number of uploads aborted
     * @throws TransientStoreException when the store cannot be reached
     */
    int abortIncompleteUploads(String key);

    /**
     * Aborts every incomplete multipart upload of the bucket created more than {@code age} ago.
     *
     * @return the number of uploads aborted
     * @throws TransientStoreException when the store cannot be reached
     */
    int abortUploadsOlderThan(java.time.Duration age);
}
