package io.stowage.store.s3;

import io.stowage.events.Sha256;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.FileRequestBodyConfiguration;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The request body of one part (or one single PUT): streams bytes {@code [offset, offset + length)} of
 * a local file in {@link #CHUNK_BYTES} chunks ({@link AsyncRequestBody#fromFile(FileRequestBodyConfiguration)}
 * with position, bytes to read and chunk size), so a part in flight holds a few chunks in memory rather
 * than the whole part, and hashes every byte it hands to the HTTP client.
 *
 * <p>The SDK may subscribe more than once (payload signing reads the body before it is sent; a retry
 * sends it again). Each subscription starts a new count and digest; {@link #sent()} reports the latest
 * subscription's, which, once the store has answered the request, are those of the bytes it received.
 * The SDK's file body fails a subscription when the file's size or modification time is no longer what
 * it was when this body was built; {@link #fileChanged()} tells the caller that this was the cause.
 */
final class StreamedFileRange implements AsyncRequestBody {
    /** Bytes per chunk read from the file and handed to the HTTP client: 256 KiB. */
    static final int CHUNK_BYTES = 256 << 10;

    private final Path path;
    private final AsyncRequestBody file;
    private final long length;
    private final long sizeAtStart;
    private final FileTime modifiedAtStart;
    private volatile Tally latest = new Tally();

    /**
     * @param path   the file
     * @param offset first byte sent, from 0
     * @param length bytes sent, at least 1
     * @throws UncheckedIOException when the file cannot be read
     */
    StreamedFileRange(Path path, long offset, long length) {
        this.path = path;
        this.length = length;
        try {
            this.modifiedAtStart = Files.getLastModifiedTime(path);
            this.sizeAtStart = Files.size(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
        this.file = AsyncRequestBody.fromFile(FileRequestBodyConfiguration.builder()
                .path(path).position(offset).numBytesToRead(length).chunkSizeInBytes(CHUNK_BYTES).build());
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of(length);
    }

    @Override
    public String contentType() {
        return file.contentType();
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> downstream) {
        Tally tally = new Tally();
        latest = tally;
        file.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                downstream.onSubscribe(subscription);
            }

            @Override
            public void onNext(ByteBuffer chunk) {
                tally.add(chunk.duplicate());
                downstream.onNext(chunk);
            }

            @Override
            public void onError(Throwable failure) {
                downstream.onError(failure);
            }

            @Override
            public void onComplete() {
                downstream.onComplete();
            }
        });
    }

    /** @return bytes and SHA-256 (hex) handed out so far by the latest subscription (0 bytes before the first) */
    Sent sent() {
        return latest.snapshot();
    }

    /**
     * @return true when the file is gone or its size or modification time differs from when this body was
     *         built: a failed send was then caused by the file changing, not by the store
     */
    boolean fileChanged() {
        try {
            return Files.size(path) != sizeAtStart || !Files.getLastModifiedTime(path).equals(modifiedAtStart);
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * What one subscription handed out.
     *
     * @param bytes  number of bytes
     * @param sha256 SHA-256 of those bytes, hex
     */
    record Sent(long bytes, String sha256) {
    }

    /** Count and digest of one subscription; chunks arrive serially, a snapshot may be taken from another thread. */
    private static final class Tally {
        private final MessageDigest digest = Sha256.newDigest();
        private long bytes;

        synchronized void add(ByteBuffer chunk) {
            bytes += chunk.remaining();
            digest.update(chunk);
        }

        synchronized Sent snapshot() {
            try {
                return new Sent(bytes, Sha256.hex((MessageDigest) digest.clone()));
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException("SHA-256 digest cannot be cloned", e);
            }
        }
    }
}
