package io.stowage.store;

import java.util.Map;

/**
 * What a HEAD request says about one object.
 *
 * @param bytes    object size in bytes (Content-Length)
 * @param sha256   the {@code sha256} user metadata ({@code x-amz-meta-sha256}), or null when the object has none
 * @param etag     the ETag, quotes stripped
 * @param metadata all the object's user metadata, names without the {@code x-amz-meta-} prefix, in lower case (as
 *                 S3 returns them); empty when it has none
 */
public record ObjectHead(long bytes, String sha256, String etag, Map<String, String> metadata) {

    public ObjectHead {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    /** A head without user metadata other than {@code sha256}. */
    public ObjectHead(long bytes, String sha256, String etag) {
        this(bytes, sha256, etag, Map.of());
    }
}
