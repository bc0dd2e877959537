package io.stowage.shardformat.write;

import io.stowage.events.manifest.MemberEntry;

import java.util.List;

/**
 * A finished shard: the {@code <sha256>.tar.zst} file and its {@code <sha256>.members.jsonl} member manifest.
 *
 * @param index   0-based shard number
 * @param shard   the shard file, named by its SHA-256
 * @param members the member manifest file
 * @param entries the member manifest's lines, in member order
 */
public record BuiltShard(int index, WrittenFile shard, WrittenFile members, List<MemberEntry> entries) {
    public BuiltShard {
        entries = List.copyOf(entries);
    }

    /** @return total uncompressed member bytes */
    public long memberBytes() {
        return entries.stream().mapToLong(MemberEntry::bytes).sum();
    }
}
