package io.stowage.ledger.domain;

import java.util.List;

/**
 * Answer of {@code GET /api/lag}: the consumer group's position on every partition of every audit topic and
 * dead-letter topic, read from Kafka (committed offsets against end offsets).
 *
 * @param group      the ledger's consumer group ({@code stowage-ledger})
 * @param total      sum of every partition's lag, in records
 * @param caughtUp   true when every partition's lag is 0
 * @param partitions one line per partition, topics in {@code Topics.ALL} order then their dead-letter topics
 */
public record LedgerLag(String group, long total, boolean caughtUp, List<PartitionLag> partitions) {

    /** @return the totals over {@code partitions} */
    public static LedgerLag of(String group, List<PartitionLag> partitions) {
        long total = partitions.stream().mapToLong(PartitionLag::lag).sum();
        return new LedgerLag(group, total, total == 0, List.copyOf(partitions));
    }
}
