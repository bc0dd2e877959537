package io.stowage.shardformat;

import io.stowage.events.Sha256;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * The compressed shard bytes as they come from the caller's stream: counts them, hashes them with SHA-256, and marks
 * a failure of the caller's stream (disk, network) as {@link SourceFailure} so it is not mistaken for a bad shard.
 */
final class SourceStream extends FilterInputStream {
    /** An {@link IOException} of the caller's stream, carried through the zstd and tar layers unchanged. */
    static final class SourceFailure extends IOException {
        SourceFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private final MessageDigest digest;
    private long bytes;

    SourceStream(InputStream in) {
        super(in);
        this.digest = Sha256.newDigest();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            throw new SourceFailure(e);
        }
        if (n > 0) {
            digest.update(b, off, n);
            bytes += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        byte[] buffer = new byte[8192];
        long skipped = 0;
        for (int r; skipped < n && (r = read(buffer, 0, (int) Math.min(buffer.length, n - skipped))) > 0; ) {
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** Reads the rest of the caller's stream, so that the count and hash cover every byte. */
    void drain() throws IOException {
        byte[] buffer = new byte[64 << 10];
        while (read(buffer, 0, buffer.length) >= 0) {
            // counted and hashed by read
        }
    }

    long bytes() {
        return bytes;
    }

    String sha256Hex() {
        return Sha256.hex(digest);
    }
}
