package io.stowage.shardformat;

import com.github.luben.zstd.ZstdInputStream;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Decompresses a zstd stream of one or more concatenated frames and names its failures: a stream that ends inside a
 * frame is {@link ShardStreamException.Kind#TRUNCATED}, anything else zstd refuses is
 * {@link ShardStreamException.Kind#CORRUPT_ZSTD}. zstd-jni's non-continuous mode is what makes an early end an error.
 */
final class ZstdGuard extends FilterInputStream {

    ZstdGuard(SourceStream compressed) throws IOException {
        super(open(compressed));
    }

    private static InputStream open(SourceStream compressed) throws IOException {
        try {
            ZstdInputStream zstd = new ZstdInputStream(compressed);
            zstd.setContinuous(false);
            return zstd;
        } catch (SourceStream.SourceFailure e) {
            throw e;
        } catch (IOException e) {
            throw translate(e);
        }
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (SourceStream.SourceFailure e) {
            throw e;
        } catch (IOException e) {
            throw translate(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (SourceStream.SourceFailure e) {
            throw e;
        } catch (IOException e) {
            throw translate(e);
        }
    }

    private static ShardStreamException translate(IOException e) {
        String message = String.valueOf(e.getMessage());
        ShardStreamException.Kind kind = message.contains("Truncated") || message.contains("truncated")
                ? ShardStreamException.Kind.TRUNCATED : ShardStreamException.Kind.CORRUPT_ZSTD;
        return new ShardStreamException(kind, "zstd: " + message, e);
    }
}
