package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.store.ReadResult;
import io.stowage.store.TransientStoreException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/**
 * One full read of a large object as ranged GETs: consumes the object's size and ETag (from a HEAD)
 * and produces its bytes and SHA-256. Parts are requested a few at a time and fed to one digest in
 * order; every part must carry the HEAD's ETag, total size and its exact length, otherwise the object changed
 * while it was read and the read fails as transient (a retry starts over).
 */
final class RangedRead {
    private final S3AsyncClient client;
    private final String bucket;
    private final ReadTuning tuning;

    RangedRead(S3AsyncClient client, String bucket, ReadTuning tuning) {
        this.client = client;
        this.bucket = bucket;
        this.tuning = tuning;
    }

    /**
     * @param bytes object size from the HEAD, more than 0
     * @param etag  ETag from the HEAD, quotes stripped
     * @throws TransientStoreException when a part has another ETag or length; SDK failures propagate
     */
    ReadResult run(String key, long bytes, String etag) {
        MessageDigest digest = Sha256.newDigest();
        Deque<CompletableFuture<ResponseBytes<GetObjectResponse>>> window = new ArrayDeque<>();
        long next = 0;
        long hashed = 0;
        try {
            while (hashed < bytes) {
                while (next < bytes && window.size() < tuning.partsInFlight()) {
                    window.add(part(key, next, Math.min(bytes, next + tuning.partSize()) - 1));
                    next = Math.min(bytes, next + tuning.partSize());
                }
                long end = Math.min(bytes, hashed + tuning.partSize());
                ResponseBytes<GetObjectResponse> part = window.removeFirst().join();
                check(key, part, end - hashed, bytes, etag);
                digest.update(part.asByteArrayUnsafe()); // a read-only ByteBuffer would be copied in small chunks
                hashed = end;
            }
        } finally {
            window.forEach(f -> f.cancel(true));
        }
        return new ReadResult(hashed, Sha256.hex(digest));
    }

    private CompletableFuture<ResponseBytes<GetObjectResponse>> part(String key, long first, long last) {
        return client.getObject(b -> b.bucket(bucket).key(key).range("bytes=" + first + "-" + last),
                AsyncResponseTransformer.toBytes());
    }

    /** The part's ETag and the total size in its Content-Range ("bytes 0-99/1000") must be the HEAD's. */
    private void check(String key, ResponseBytes<GetObjectResponse> part, long expected, long bytes, String etag) {
        String partEtag = S3Errors.stripQuotes(part.response().eTag());
        if (etag != null && partEtag != null && !etag.equals(partEtag)) {
            throw new TransientStoreException("GET " + bucket + "/" + key + ": object changed while read (ETag "
                    + partEtag + ", was " + etag + ")", null);
        }
        String range = part.response().contentRange();
        String total = range == null ? null : range.substring(range.lastIndexOf('/') + 1);
        if (total != null && !total.equals("*") && !total.equals(Long.toString(bytes))) {
            throw new TransientStoreException("GET " + bucket + "/" + key + ": object changed while read ("
                    + total + " bytes, was " + bytes + ")", null);
        }
        if (part.asByteArrayUnsafe().length != expected) {
            throw new TransientStoreException("GET " + bucket + "/" + key + ": part of " + part.asByteArrayUnsafe().length
                    + " bytes, expected " + expected, null);
        }
    }
}
