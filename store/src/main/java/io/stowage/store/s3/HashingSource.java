package io.stowage.store.s3;

import io.stowage.store.Sha256;
import io.stowage.store.SourceChangedException;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

/**
 * Reads a local file in chunks for upload and hashes exactly the bytes handed out, so that what
 * is sent is what is checked. {@link #finish()} refuses a file whose size or SHA-256 is not the
 * expected one.
 */
final class HashingSource implements AutoCloseable {
    private final Path file;
    private final long expectedBytes;
    private final String expectedSha256;
    private final FileChannel channel;
    private final MessageDigest digest = Sha256.newDigest();
    private long read;

    HashingSource(Path file, long expectedBytes, String expectedSha256) {
        this.file = file;
        this.expectedBytes = expectedBytes;
        this.expectedSha256 = expectedSha256;
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    /** @return the file being read */
    Path file() {
        return file;
    }

    /** @return bytes still to read before the expected size is reached */
    long remaining() {
        return expectedBytes - read;
    }

    /**
     * @return the next {@code size} bytes, hashed
     * @throws SourceChangedException when the file ends before the expected size
     */
    byte[] next(int size) {
        ByteBuffer buffer = ByteBuffer.allocate(size);
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    throw new EOFException();
                }
            }
        } catch (EOFException e) {
            throw changed(read + buffer.position());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        digest.update(buffer.array());
        read += size;
        return buffer.array();
    }

    /**
     * Call after the expected number of bytes was read.
     *
     * @return SHA-256 of the bytes read
     * @throws SourceChangedException when the file is longer than expected or its SHA-256 differs
     */
    String finish() {
        String actual = Sha256.hex(digest);
        try {
            if (channel.size() != expectedBytes) {
                throw changed(channel.size());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (!actual.equals(expectedSha256)) {
            throw new SourceChangedException(file.toString(), expectedBytes, expectedSha256, read, actual);
        }
        return actual;
    }

    private SourceChangedException changed(long actualBytes) {
        String actual;
        try {
            actual = Sha256.of(file);
        } catch (UncheckedIOException e) {
            actual = null;
        }
        return new SourceChangedException(file.toString(), expectedBytes, expectedSha256, actualBytes, actual);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // read-only channel: nothing was written that closing could lose
        }
    }
}
