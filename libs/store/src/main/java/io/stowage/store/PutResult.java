package io.stowage.store;

/**
 * An object written by {@link ObjectWriter#put}.
 *
 * @param etag      the ETag the store returned, quotes stripped
 * @param bytes     bytes sent
 * @param sha256    SHA-256 computed over exactly the bytes sent (equal to the expected one, or the put fails)
 * @param multipart true when it went up as a multipart upload
 */
public record PutResult(String etag, long bytes, String sha256, boolean multipart) {
}
