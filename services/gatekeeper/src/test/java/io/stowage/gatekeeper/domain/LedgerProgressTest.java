package io.stowage.gatekeeper.domain;

import io.stowage.events.Topics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Ledger-behind over every evidence topic, against the end offsets seen when the request arrived. */
class LedgerProgressTest {
    static LedgerProgress.Partition p(String topic, int partition, long consumed, long end) {
        return new LedgerProgress.Partition(topic, partition, consumed, end);
    }

    /** @return {@code partitions} plus partition 0 of every other evidence topic, empty */
    static List<LedgerProgress.Partition> withEveryTopic(LedgerProgress.Partition... partitions) {
        List<LedgerProgress.Partition> all = new java.util.ArrayList<>(List.of(partitions));
        LedgerProgress.EVIDENCE_TOPICS.stream().filter(t -> all.stream().noneMatch(p -> p.topic().equals(t)))
                .forEach(t -> all.add(p(t, 0, 0, 0)));
        return all;
    }

    @Test
    void theLedgerIsBehindByWhatItHasNotCommittedOfTheEndsAtArrival() {
        Map<String, Long> atArrival = LedgerProgress.snapshot(withEveryTopic(p(Topics.OBJECT_VERIFIED, 0, 4, 9),
                p(Topics.OBJECT_VERIFIED, 1, 2, 2), p(Topics.BASELINE_ARCHIVED, 3, 0, 1), p(Topics.GATE_DENIED, 0, 7, 8),
                p(Topics.VOLUME_RELEASED, 0, 0, 50)));
        List<LedgerProgress.Partition> now = List.of(p(Topics.OBJECT_VERIFIED, 0, 6, 20), p(Topics.OBJECT_VERIFIED, 1, 2, 5),
                p(Topics.GATE_DENIED, 0, 8, 8), p(Topics.VOLUME_RELEASED, 0, 0, 60));

        Map<String, Long> behind = LedgerProgress.behind(atArrival, now);

        assertThat(behind).containsExactly(Map.entry(Topics.OBJECT_VERIFIED, 3L), Map.entry(Topics.BASELINE_ARCHIVED, 1L));
        assertThat(LedgerProgress.describe(behind))
                .isEqualTo("object.verified 3 record(s) behind, baseline.archived 1 record(s) behind");
    }

    @Test
    void recordsAfterTheArrivalDoNotHoldTheGateBack() {
        Map<String, Long> atArrival = LedgerProgress.snapshot(withEveryTopic(p(Topics.OBJECT_UPLOADED, 0, 3, 3)));

        assertThat(LedgerProgress.behind(atArrival, List.of(p(Topics.OBJECT_UPLOADED, 0, 3, 400)))).isEmpty();
    }

    @Test
    void aLagThatOmitsAnEvidenceTopicIsNoProofOfBeingCaughtUp() {
        List<LedgerProgress.Partition> partial = withEveryTopic().stream()
                .filter(p -> !p.topic().equals(Topics.SHARD_BUILT) && !p.topic().equals(Topics.GATE_DENIED)).toList();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LedgerProgress.snapshot(partial))
                .isInstanceOf(LedgerProgress.MissingTopics.class)
                .hasMessage("no partition of shard.built, gate.denied (missing on the broker)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LedgerProgress.snapshot(List.of()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyEvidenceTopicAndTheGatesDecisionsAreWatched() {
        assertThat(LedgerProgress.EVIDENCE_TOPICS).contains(Topics.OBJECT_UPLOADED, Topics.OBJECT_VERIFIED,
                Topics.DATASET_SEALED, Topics.CHECKPOINT_PUBLISHED, Topics.SHARD_BUILT, Topics.BASELINE_ARCHIVED,
                Topics.GATE_PASSED, Topics.GATE_DENIED);
    }
}
