package io.stowage.shardformat;

/**
 * One thing wrong with a shard, found by {@link ShardReader#verify}.
 *
 * @param kind   what is wrong
 * @param member the tar member name it concerns, or null for the shard as a whole
 * @param detail expected and actual values (bytes, SHA-256 hex) or the reader's message
 */
public record ShardProblem(Kind kind, String member, String detail) {
    /** The kinds of problem; the first three are the stream's ({@link ShardStreamException.Kind}). */
    public enum Kind {
        /** The stream ends too early (see {@link ShardStreamException.Kind#TRUNCATED}). */
        TRUNCATED,
        /** The bytes are not a valid zstd stream. */
        CORRUPT_ZSTD,
        /** The decompressed bytes are not a valid tar. */
        CORRUPT_TAR,
        /** The shard's own SHA-256 differs from its expected content address. */
        SHARD_SHA256_MISMATCH,
        /** The manifest names a member the tar does not hold. */
        MISSING_MEMBER,
        /** The tar holds a member the manifest does not name. */
        EXTRA_MEMBER,
        /** The tar holds the same member name twice. */
        DUPLICATE_MEMBER,
        /** A member's size differs from its manifest entry. */
        SIZE_MISMATCH,
        /** A member's SHA-256 differs from its manifest entry. */
        SHA256_MISMATCH,
        /**
         * A member name (in the tar or the member manifest) is absolute, has an empty, {@code .} or {@code ..}
         * segment, a backslash or a NUL, or is not the name its raw header records give ({@link MemberName})
         */
        UNSAFE_MEMBER_NAME,
        /** A tar entry is not a regular file (directory, link, device): shards hold regular files only. */
        NOT_A_FILE
    }

    /** @return one line: kind, member (when there is one) and detail */
    @Override
    public String toString() {
        return kind + (member == null ? "" : " " + member) + ": " + detail;
    }
}
