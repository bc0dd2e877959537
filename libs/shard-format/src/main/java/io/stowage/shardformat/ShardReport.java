package io.stowage.shardformat;

import java.util.List;

/**
 * What {@link ShardReader#verify} found in one shard.
 *
 * @param shardBytes   compressed bytes of the shard stream, -1 when the stream broke before its end
 * @param shardSha256  SHA-256 of those bytes, 64 lower-case hex digits; null when the stream broke
 * @param membersRead  tar members read (complete or not)
 * @param memberBytes  uncompressed member bytes read
 * @param problems     every problem found, in the order found; empty when the shard is good
 */
public record ShardReport(long shardBytes, String shardSha256, int membersRead, long memberBytes,
                          List<ShardProblem> problems) {
    public ShardReport {
        problems = List.copyOf(problems);
    }

    /** @return true when no problem was found */
    public boolean ok() {
        return problems.isEmpty();
    }
}
