package io.stowage.shardformat.write;

import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.tar.TarUtils;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Sits between the tar stream and the compressor and blanks the user and group names of the PAX
 * extended header records that commons-compress writes for long, non-ASCII or big-number entries:
 * it fills them with the JVM's {@code user.name}, which would make the same directory give
 * different shards for different operating-system users. Every other byte passes unchanged.
 */
final class PaxHeaderNormaliser extends FilterOutputStream {
    private static final int MAGIC_OFFSET = TarConstants.NAMELEN + TarConstants.MODELEN + TarConstants.UIDLEN
            + TarConstants.GIDLEN + TarConstants.SIZELEN + TarConstants.MODTIMELEN + TarConstants.CHKSUMLEN
            + 1 + TarConstants.NAMELEN;
    private static final int TYPE_OFFSET = MAGIC_OFFSET - TarConstants.NAMELEN - 1;
    private static final int CHECKSUM_OFFSET = TYPE_OFFSET - TarConstants.CHKSUMLEN;
    private static final int USER_NAME_OFFSET = MAGIC_OFFSET + TarConstants.MAGICLEN + TarConstants.VERSIONLEN;
    private static final byte[] USTAR_MAGIC = TarConstants.MAGIC_POSIX.getBytes(StandardCharsets.US_ASCII);

    private final byte[] record = new byte[TarConstants.DEFAULT_RCDSIZE];
    private int filled = -1;

    PaxHeaderNormaliser(OutputStream out) {
        super(out);
    }

    /** Call right before {@code putArchiveEntry}: the next 512-byte record is the entry's first header record. */
    void nextRecordIsHeader() {
        filled = 0;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        if (filled < 0) {
            out.write(buffer, offset, length);
            return;
        }
        int taken = Math.min(length, record.length - filled);
        System.arraycopy(buffer, offset, record, filled, taken);
        filled += taken;
        if (filled == record.length) {
            normalise(record);
            out.write(record);
            filled = -1;
            out.write(buffer, offset + taken, length - taken);
        }
    }

    private static void normalise(byte[] header) {
        boolean pax = header[TYPE_OFFSET] == TarConstants.LF_PAX_EXTENDED_HEADER_LC
                && Arrays.equals(header, MAGIC_OFFSET, MAGIC_OFFSET + USTAR_MAGIC.length, USTAR_MAGIC, 0, USTAR_MAGIC.length);
        if (!pax) {
            return;
        }
        Arrays.fill(header, USER_NAME_OFFSET, USER_NAME_OFFSET + TarConstants.UNAMELEN + TarConstants.GNAMELEN, (byte) 0);
        Arrays.fill(header, CHECKSUM_OFFSET, CHECKSUM_OFFSET + TarConstants.CHKSUMLEN, (byte) ' ');
        TarUtils.formatCheckSumOctalBytes(TarUtils.computeCheckSum(header), header, CHECKSUM_OFFSET, TarConstants.CHKSUMLEN);
    }
}
