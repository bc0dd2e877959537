package io.stowage.store.s3;

import java.util.List;

/**
 * What an {@link UploadJournal} says about one multipart upload.
 *
 * @param key                object key
 * @param uploadId           the store's upload id
 * @param partSize           bytes of every part but the last, fixed when the upload was created
 * @param bytes              size of the whole object in bytes
 * @param sha256             expected SHA-256 of the whole object, hex
 * @param createdEpochMillis when the upload was created (milliseconds since the epoch)
 * @param parts              parts the store confirmed, in the order they were recorded
 */
record JournaledUpload(String key, String uploadId, int partSize, long bytes, String sha256,
                       long createdEpochMillis, List<Part> parts) {

    /**
     * One part the store confirmed.
     *
     * @param number part number, from 1
     * @param bytes  part size in bytes
     * @param sha256 SHA-256 of exactly the bytes sent, hex
     * @param etag   the part's ETag as the store returned it
     */
    record Part(int number, long bytes, String sha256, String etag) {
    }

    /** @return the number of parts an object of {@code bytes} has with this part size (at least 1) */
    int partCount() {
        return (int) Math.max(1, (bytes + partSize - 1) / partSize);
    }
}
