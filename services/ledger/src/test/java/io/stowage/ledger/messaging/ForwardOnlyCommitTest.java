package io.stowage.ledger.messaging;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which offsets the ledger's commit strategy lets through: assigned partitions, strictly above the committed offset. */
class ForwardOnlyCommitTest {
    private static final TopicPartition P0 = new TopicPartition("object.uploaded", 0);
    private static final TopicPartition P1 = new TopicPartition("object.uploaded", 1);
    private static final TopicPartition P2 = new TopicPartition("object.uploaded", 2);

    @Test
    void anOlderPeriodicCommitAfterTheRevocationsNewerOneIsDropped() {
        // the revocation committed 2400; the periodic commit computed before it (1750) runs after it
        Map<TopicPartition, OffsetAndMetadata> forward = ForwardOnlyCommit.forward(
                Map.of(P0, new OffsetAndMetadata(1750), P1, new OffsetAndMetadata(900)),
                Set.of(P0, P1), Map.of(P0, new OffsetAndMetadata(2400), P1, new OffsetAndMetadata(450)));
        assertThat(forward).containsExactly(Map.entry(P1, new OffsetAndMetadata(900)));
    }

    @Test
    void aPartitionNoLongerAssignedIsNotCommittedEvenAboveTheCommittedOffset() {
        Map<TopicPartition, OffsetAndMetadata> forward = ForwardOnlyCommit.forward(
                Map.of(P0, new OffsetAndMetadata(3000), P2, new OffsetAndMetadata(10)),
                Set.of(P2), Map.of(P0, new OffsetAndMetadata(2400)));
        assertThat(forward).containsExactly(Map.entry(P2, new OffsetAndMetadata(10)));
    }

    @Test
    void theSameOffsetAgainIsNotSentAndAFirstCommitIs() {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        committed.put(P0, new OffsetAndMetadata(2400));
        committed.put(P1, null);                               // the consumer reports "none yet" as a null value
        Map<TopicPartition, OffsetAndMetadata> forward = ForwardOnlyCommit.forward(
                Map.of(P0, new OffsetAndMetadata(2400), P1, new OffsetAndMetadata(1)), Set.of(P0, P1), committed);
        assertThat(forward).containsExactly(Map.entry(P1, new OffsetAndMetadata(1)));
    }
}
