package io.stowage.shardformat.write;

import io.stowage.events.Sha256;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;

/**
 * Passes bytes through to an underlying stream while computing their SHA-256 and counting them, so
 * that a file's content address is known the moment it is written, without reading it again.
 */
public final class DigestingOutputStream extends FilterOutputStream {
    private final MessageDigest digest = Sha256.newDigest();
    private long bytes;

    /** @param out where the bytes go */
    public DigestingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        digest.update((byte) b);
        bytes++;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        out.write(buffer, offset, length);
        digest.update(buffer, offset, length);
        bytes += length;
    }

    /** @return the number of bytes written so far */
    public long bytes() {
        return bytes;
    }

    /** @return the SHA-256 of everything written, 64 lower-case hex digits; call once, after the last write */
    public String sha256Hex() {
        return Sha256.hex(digest);
    }
}
