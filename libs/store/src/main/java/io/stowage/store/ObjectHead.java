package io.stowage.store;

/**
 * What a HEAD request says about one object.
 *
 * @param bytes  object size in bytes (Content-Length)
 * @param sha256 the {@code sha256} user metadata ({@code x-amz-meta-sha256}), or null when the object has none
 * @param etag   the ETag, quotes stripped
 */
public record ObjectHead(long bytes, String sha256, String etag) {
}
