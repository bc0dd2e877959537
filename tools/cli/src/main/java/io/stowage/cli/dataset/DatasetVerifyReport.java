package io.stowage.cli.dataset;

import java.util.List;

/**
 * What {@code stowage dataset verify} found, as printed by {@code --json}.
 *
 * @param source       the local path or {@code <dataset>/<revision>} in the store
 * @param shards       one line per shard, in the order read
 * @param shardsOk     shards without any problem
 * @param shardsFailed shards with at least one problem
 * @param memberBytes  uncompressed member bytes read, all shards
 * @param seconds      wall-clock time of the whole check, seconds
 */
public record DatasetVerifyReport(String source, List<ShardLine> shards, int shardsOk, int shardsFailed, long memberBytes,
                           double seconds) {

    /**
     * One shard's outcome.
     *
     * @param shard       file path or object key
     * @param ok          true when no problem was found
     * @param members     tar members read
     * @param memberBytes uncompressed member bytes read
     * @param shardBytes  compressed bytes read, -1 when the stream broke or was not read
     * @param sha256      SHA-256 of the compressed bytes, null when the stream broke or was not read
     * @param problems    every problem, in the order found
     */
    public record ShardLine(String shard, boolean ok, int members, long memberBytes, long shardBytes, String sha256,
                     List<Problem> problems) {
    }

    /**
     * One problem with a shard.
     *
     * @param kind   a {@link io.stowage.shardformat.ShardProblem.Kind} name, or SHARD_MISSING, SHARD_SIZE_MISMATCH,
     *               MEMBER_MANIFEST_MISSING, MEMBER_MANIFEST_INVALID, MEMBER_MANIFEST_SHA256_MISMATCH, READ_FAILED
     * @param member the tar member it concerns, null for the shard as a whole
     * @param detail expected and actual values, or the reader's message
     */
    public record Problem(String kind, String member, String detail) {
        @Override
        public String toString() {
            return kind + (member == null ? "" : " " + member) + ": " + detail;
        }
    }
}
