package io.stowage.store.s3;

import io.stowage.events.Sha256;
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
 * Reads a local file in order, part by part, through one small buffer and hashes it: the whole file
 * (for the object's SHA-256) and each part on its own (the part's SHA-256, against which the bytes
 * actually sent are checked). {@link #finish()} refuses a file whose size or SHA-256 is not the
 * expected one.
 */
final class HashingSource implements AutoCloseable {
    private final Path file;
    private final long expectedBytes;
    private final String expectedSha256;
    private final FileChannel channel;
    /** Bytes read and hashed at a time: 1 MiB. */
    static final int BUFFER_BYTES = 1 << 20;

    private final MessageDigest digest = Sha256.newDigest();
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
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

    /** @return bytes read so far: the offset in the file of the next byte {@link #hashNext} reads */
    long position() {
        return read;
    }

    /**
     * Reads the next {@code size} bytes through a {@link #BUFFER_BYTES} buffer, adding them to the
     * whole-file digest, and hashes them on their own too (a part's SHA-256). Nothing is kept: the
     * bytes are sent later straight from the file ({@link StreamedFileRange}) and checked against the
     * returned digest.
     *
     * @return SHA-256 (hex) of exactly these {@code size} bytes
     * @throws SourceChangedException when the file ends before the expected size
     */
    String hashNext(long size) {
        MessageDigest part = Sha256.newDigest();
        long left = size;
        try {
            while (left > 0) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), left));
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer) < 0) {
                        throw new EOFException();
                    }
                }
                buffer.flip();
                digest.update(buffer.duplicate());
                part.update(buffer);
                left -= buffer.limit();
            }
        } catch (EOFException e) {
            throw changed(read + (size - left) + buffer.position());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        read += size;
        return Sha256.hex(part);
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
        } catch (IOException e) {
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
