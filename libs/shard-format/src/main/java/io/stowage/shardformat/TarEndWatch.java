package io.stowage.shardformat;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The decompressed tar bytes between zstd and the tar parser: counts them and checks that from the offset where the
 * next header is due, what follows is the end-of-archive marker (two 512-byte zero blocks) and only zeros after it.
 * Commons Compress treats a tar that simply stops at a block boundary as finished; this is how the reader tells such a
 * cut from a real end.
 */
final class TarEndWatch extends FilterInputStream {
    static final int BLOCK = 512;
    static final int END_MARKER = 2 * BLOCK;
    /** Header records kept for one member: a PAX header with a name of any sane length fits many times over. */
    static final int HEADER_CAPTURE = 1 << 20;

    private long position;
    private long headerAt;
    private long firstNonZero = -1;
    private final ByteArrayOutputStream headerRecords = new ByteArrayOutputStream();
    private boolean headerOverflow;

    TarEndWatch(InputStream in) {
        super(in);
    }

    /** @param offset decompressed byte offset where the next header (or the end marker) must start */
    void nextHeaderAt(long offset) {
        headerAt = offset;
        firstNonZero = -1;
        headerRecords.reset();
        headerOverflow = false;
    }

    /**
     * @return the bytes read from the offset given to {@link #nextHeaderAt} (0 at first) up to now: right after the
     *         tar parser returned an entry, that member's header records; null when they exceed {@link #HEADER_CAPTURE}
     */
    byte[] headerRecords() {
        return headerOverflow ? null : headerRecords.toByteArray();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        for (int i = 0; i < n; i++) {
            long at = position + i;
            if (at >= headerAt && firstNonZero < 0) {
                if (b[off + i] != 0) {
                    firstNonZero = at;
                }
            }
        }
        capture(b, off, n);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    private void capture(byte[] b, int off, int n) {
        int from = (int) Math.max(0, Math.min(n, headerAt - position));
        if (n <= from || headerOverflow) {
            return;
        }
        if (headerRecords.size() + (n - from) > HEADER_CAPTURE) {
            headerOverflow = true;
            headerRecords.reset();
            return;
        }
        headerRecords.write(b, off + from, n - from);
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

    /** @return decompressed bytes read so far */
    long position() {
        return position;
    }

    /**
     * Reads the rest of the decompressed stream and checks the end of the tar.
     *
     * @throws ShardStreamException TRUNCATED when the stream ends less than 1,024 bytes after the offset where the next
     *                              header was due (a cut inside a header block or the marker, whatever those bytes hold),
     *                              CORRUPT_TAR when the 1,024 bytes are there but not all zero, or non-zero bytes follow
     *                              the marker
     */
    void requireEndMarker() throws IOException {
        byte[] buffer = new byte[64 << 10];
        while (read(buffer, 0, buffer.length) >= 0) {
            // checked by read
        }
        if (position < headerAt + END_MARKER) {
            throw new ShardStreamException(ShardStreamException.Kind.TRUNCATED, "the tar stops at decompressed offset "
                    + position + " without its end-of-archive marker (two zero blocks due at offset " + headerAt + ")", null);
        }
        if (firstNonZero >= 0 && firstNonZero < headerAt + END_MARKER) {
            throw new ShardStreamException(ShardStreamException.Kind.CORRUPT_TAR, "a non-zero byte at decompressed offset "
                    + firstNonZero + " where the next header or the end-of-archive marker was due (offset " + headerAt + ")", null);
        }
        if (firstNonZero >= 0) {
            throw new ShardStreamException(ShardStreamException.Kind.CORRUPT_TAR, "non-zero bytes at decompressed offset "
                    + firstNonZero + ", after the end-of-archive marker", null);
        }
    }
}
