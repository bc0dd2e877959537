package io.stowage.prefetch;

import java.io.IOException;

/**
 * A shard whose tar members do not agree with its member manifest: a member missing, extra, repeated, of another
 * size or SHA-256, with an unsafe path, or a truncated zstd stream. The message names the shard and the member.
 */
public final class MemberMismatchException extends IOException {
    public MemberMismatchException(String message) {
        super(message);
    }

    public MemberMismatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
