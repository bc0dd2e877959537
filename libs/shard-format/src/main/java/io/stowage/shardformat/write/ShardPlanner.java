package io.stowage.shardformat.write;

import java.util.ArrayList;
import java.util.List;

/**
 * Packs sorted members greedily into shards of at most a target size: consumes the member list of
 * {@link DatasetScanner}, produces {@link ShardPlan}s. A member is never split; a member bigger
 * than the target gets a shard of its own. The target counts member bytes, not tar headers or
 * compression, so a shard file may be somewhat larger or (usually) smaller than the target.
 */
public final class ShardPlanner {
    private final long targetShardBytes;

    /**
     * @param targetShardBytes target member bytes per shard, positive (production: 1–4 GiB)
     * @throws DatasetInputException when the target is not positive
     */
    public ShardPlanner(long targetShardBytes) {
        if (targetShardBytes <= 0) {
            throw new DatasetInputException("target shard size must be positive: " + targetShardBytes + " bytes");
        }
        this.targetShardBytes = targetShardBytes;
    }

    /**
     * @param members members in member order (sorted by path); must not be empty
     * @return the shards in order, indexes 0..n-1, together holding every member once, in the given order
     * @throws DatasetInputException when there are no members
     */
    public List<ShardPlan> plan(List<Member> members) {
        if (members.isEmpty()) {
            throw new DatasetInputException("the dataset directory holds no files");
        }
        List<ShardPlan> shards = new ArrayList<>();
        List<Member> current = new ArrayList<>();
        long currentBytes = 0;
        for (Member member : members) {
            if (!current.isEmpty() && currentBytes + member.bytes() > targetShardBytes) {
                shards.add(new ShardPlan(shards.size(), current));
                current = new ArrayList<>();
                currentBytes = 0;
            }
            current.add(member);
            currentBytes += member.bytes();
        }
        shards.add(new ShardPlan(shards.size(), current));
        return shards;
    }
}
