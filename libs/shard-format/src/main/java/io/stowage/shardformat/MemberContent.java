package io.stowage.shardformat;

import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;

/**
 * One member's bytes as a visitor sees them: reads from the tar, turns Commons Compress's "Truncated TAR archive"
 * into {@link ShardStreamException.Kind#TRUNCATED}, and ignores {@code close()} (the tar stream stays open).
 */
final class MemberContent extends FilterInputStream {

    MemberContent(TarArchiveInputStream tar) {
        super(tar);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return in.read(b, off, len);
        } catch (ShardStreamException | SourceStream.SourceFailure e) {
            throw e;
        } catch (EOFException e) {
            throw new ShardStreamException(ShardStreamException.Kind.TRUNCATED, "member data cut: " + e.getMessage(), e);
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("Truncated")) {
                throw new ShardStreamException(ShardStreamException.Kind.TRUNCATED, "member data cut: " + e.getMessage(), e);
            }
            throw e;
        }
    }

    @Override
    public void close() {
        // the tar stream belongs to the reader
    }
}
