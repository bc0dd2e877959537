package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.store.ReadResult;
import io.stowage.store.TransientStoreException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One full read of a large object as ranged GETs on the blocking client: consumes the object's size and ETag (from a
 * HEAD) and produces its bytes and SHA-256. Up to {@link ReadTuning#partsInFlight()} parts are read at once by
 * worker threads straight into reused part buffers (no growing buffer, no copy before the digest); the calling
 * thread hashes them in order. Memory: at most partsInFlight + 1 part buffers per read in progress, and at most
 * partsInFlight idle ones kept between reads. Every part must carry the HEAD's ETag, total size and its exact length, otherwise the
 * object changed while read and the read fails as transient (a retry starts over).
 */
final class BlockingRangedRead implements AutoCloseable {
    private final S3Client client;
    private final String bucket;
    private final ReadTuning tuning;
    private final ExecutorService parts = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stowage-ranged-get");
        t.setDaemon(true);
        return t;
    });
    private final ArrayBlockingQueue<byte[]> buffers;

    BlockingRangedRead(S3Client client, String bucket, ReadTuning tuning) {
        this.client = client;
        this.bucket = bucket;
        this.tuning = tuning;
        // idle part buffers kept for the next read: at most partsInFlight of them (a full one drops the rest to the GC)
        this.buffers = new ArrayBlockingQueue<>(tuning.partsInFlight());
    }

    /**
     * @param bytes object size from the HEAD, more than 0
     * @param etag  ETag from the HEAD, quotes stripped
     * @throws TransientStoreException when a part has another ETag or length; SDK failures propagate
     */
    ReadResult run(String key, long bytes, String etag) {
        MessageDigest digest = Sha256.newDigest();
        Deque<Future<byte[]>> window = new ArrayDeque<>();
        long next = 0;
        long hashed = 0;
        try {
            while (hashed < bytes) {
                while (next < bytes && window.size() < tuning.partsInFlight()) {
                    long first = next;
                    long last = Math.min(bytes, next + tuning.partSize()) - 1;
                    window.add(parts.submit(() -> part(key, first, last, bytes, etag)));
                    next = last + 1;
                }
                long end = Math.min(bytes, hashed + tuning.partSize());
                byte[] part = window.removeFirst().get();
                digest.update(part, 0, (int) (end - hashed));
                buffers.offer(part);
                hashed = end;
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new UncheckedIOException(new IOException(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientStoreException("GET " + bucket + "/" + key + ": interrupted", e);
        } finally {
            window.forEach(f -> f.cancel(true));
        }
        return new ReadResult(hashed, Sha256.hex(digest));
    }

    private byte[] part(String key, long first, long last, long bytes, String etag) throws IOException {
        int length = (int) (last - first + 1);
        byte[] buffer = buffers.poll();
        if (buffer == null || buffer.length < tuning.partSize()) {
            buffer = new byte[tuning.partSize()];
        }
        try (ResponseInputStream<GetObjectResponse> in = S3ObjectReader.get(client, bucket, key,
                "bytes=" + first + "-" + last)) {
            check(key, in.response(), bytes, etag);
            int read = in.readNBytes(buffer, 0, length);
            if (read != length || in.read() != -1) {
                throw new TransientStoreException("GET " + bucket + "/" + key + ": part at " + first + " is not "
                        + length + " bytes long", null);
            }
            return buffer;
        }
    }

    /** The part's ETag and the total size in its Content-Range ("bytes 0-99/1000") must be the HEAD's. */
    private void check(String key, GetObjectResponse part, long bytes, String etag) {
        String partEtag = S3Errors.stripQuotes(part.eTag());
        if (etag != null && partEtag != null && !etag.equals(partEtag)) {
            throw new TransientStoreException("GET " + bucket + "/" + key + ": object changed while read (ETag "
                    + partEtag + ", was " + etag + ")", null);
        }
        String range = part.contentRange();
        String total = range == null ? null : range.substring(range.lastIndexOf('/') + 1);
        if (total != null && !total.equals("*") && !total.equals(Long.toString(bytes))) {
            throw new TransientStoreException("GET " + bucket + "/" + key + ": object changed while read ("
                    + total + " bytes, was " + bytes + ")", null);
        }
    }

    @Override
    public void close() {
        parts.shutdownNow();
    }
}
