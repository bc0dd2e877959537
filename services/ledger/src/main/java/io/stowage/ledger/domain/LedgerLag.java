package io.stowage.ledger.domain;

import java.util.List;

/**
 * Answer of {@code GET /api/lag}: the consumer group's position on every partition of every audit topic and
 * dead-letter topic, read from Kafka (committed offsets against end offsets).
 *
 * @param group      the ledger's consumer group ({@code stowage-ledger})
 * @param total      sum of every partition's lag, in records
 * @param caughtUp   true when every partition's lag is 0 and no topic is missing
 * @param missing    the topics asked for that the broker does not have (not created yet, or deleted): they have no
 *                   partition line, and a caller that gates on them must take them as not caught up
 * @param partitions one line per partition, topics in {@code Topics.ALL} order then their dead-letter topics
 */
public record LedgerLag(String group, long total, boolean caughtUp, List<String> missing, List<PartitionLag> partitions) {

    /** @return the totals over {@code partitions}, no topic missing */
    public static LedgerLag of(String group, List<PartitionLag> partitions) {
        return of(group, partitions, List.of());
    }

    /** @return the totals over {@code partitions}, with the topics the broker lacks */
    public static LedgerLag of(String group, List<PartitionLag> partitions, List<String> missing) {
        long total = partitions.stream().mapToLong(PartitionLag::lag).sum();
        return new LedgerLag(group, total, total == 0 && missing.isEmpty(), List.copyOf(missing), List.copyOf(partitions));
    }
}
