package io.stowage.ledger.domain;

/**
 * How far the ledger's consumer group is behind on one partition.
 *
 * @param consumed the group's committed offset (the next offset it will read); 0 when it never committed there
 * @param end      the partition's end offset (the offset the next record will get)
 * @param lag      {@code end - consumed}, records not yet stored and committed (never negative)
 */
public record PartitionLag(String topic, int partition, long consumed, long end, long lag) {

    /** @return the lag of one partition from its committed and end offsets */
    public static PartitionLag of(String topic, int partition, long consumed, long end) {
        return new PartitionLag(topic, partition, consumed, end, Math.max(0, end - consumed));
    }
}
