package io.stowage.shardbuilder.domain;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Passes bytes through to an underlying stream while computing their SHA-256 and counting them, so
 * that a file's content address is known the moment it is written, without reading it again.
 */
public final class DigestingOutputStream extends FilterOutputStream {
    private final MessageDigest digest = sha256();
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
        return HexFormat.of().formatHex(digest.digest());
    }

    /** @return a new SHA-256 digest (every JRE has one) */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JRE has no SHA-256", e);
        }
    }
}
