package io.stowage.shardformat.write;

import java.util.List;

/**
 * The members that go into one shard, in member order.
 *
 * @param index   0-based shard number within the dataset revision
 * @param members the members, sorted by path, never empty
 */
public record ShardPlan(int index, List<Member> members) {
    public ShardPlan {
        members = List.copyOf(members);
    }

    /** @return the sum of the members' sizes in bytes (uncompressed, without tar headers) */
    public long memberBytes() {
        return members.stream().mapToLong(Member::bytes).sum();
    }
}
