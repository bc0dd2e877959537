package io.stowage.shardformat;

/**
 * One tar member as {@link ShardReader#read} hands it to a {@link MemberVisitor}.
 *
 * @param name        member name from the tar (PAX {@code path} when present), decoded as UTF-8
 * @param bytes       member size in bytes from the tar header (PAX {@code size} above 8 GiB)
 * @param regularFile true for a regular file; shards hold nothing else
 */
public record TarMember(String name, long bytes, boolean regularFile) {
}
