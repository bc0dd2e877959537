package io.stowage.shardformat;

import java.io.IOException;

/**
 * A shard's byte stream cannot be read to its end as one complete zstd stream holding one complete tar: thrown by
 * {@link ShardReader#read} with a {@link Kind} that names the failure.
 */
public final class ShardStreamException extends IOException {
    /** What broke. */
    public enum Kind {
        /** The stream ends too early: inside a zstd frame, inside a tar header or member, or before the tar's end-of-archive marker. */
        TRUNCATED,
        /** The bytes are not zstd, or a zstd frame fails its own checks. */
        CORRUPT_ZSTD,
        /** The decompressed bytes are not a tar (bad header checksum, bytes after the end-of-archive marker that are not zero). */
        CORRUPT_TAR
    }

    private final Kind kind;
    private final String detail;

    /**
     * @param kind   what broke
     * @param detail where: decompressed byte offset, member name, the library's message
     * @param cause  the library's exception, may be null
     */
    public ShardStreamException(Kind kind, String detail, Throwable cause) {
        super(kind + ": " + detail, cause);
        this.kind = kind;
        this.detail = detail;
    }

    /** @return where it broke, without the kind: offsets, member name, the library's message */
    public String detail() {
        return detail;
    }

    /** @return what broke */
    public Kind kind() {
        return kind;
    }
}
