package io.stowage.gatekeeper.domain;

import io.stowage.events.Topics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How far the ledger has stored the evidence topics, against the end offsets seen when a release request
 * arrived: takes the ledger's per-partition committed ("consumed") and end offsets ({@code GET /api/lag}) and
 * says how many records of each evidence topic the ledger has still to store before the gate may read it.
 */
public final class LedgerProgress {
    /**
     * Every topic whose records the gate reads as evidence (through the ledger's projections), plus the gate's
     * own decisions, so that a decision sent before the request was redelivered is in the ledger when it is asked.
     */
    public static final List<String> EVIDENCE_TOPICS = Stream.concat(Topics.EVIDENCE.stream(),
            Stream.of(Topics.OBJECT_UPLOAD_FAILED, Topics.GATE_PASSED, Topics.GATE_DENIED)).toList();

    /**
     * One partition as the ledger reports it.
     *
     * @param consumed the ledger consumer group's committed offset (0 when none)
     * @param end      the partition's end offset (the offset of the next record)
     */
    public record Partition(String topic, int partition, long consumed, long end) {
    }

    private LedgerProgress() {
    }

    /**
     * Thrown when the ledger reports no partition of an evidence topic (the broker lacks the topic, and the ledger's
     * {@code GET /api/lag} names it as missing): the ledger cannot say how far it is there, so the gate must not take
     * it for "caught up"; the message names every such topic.
     */
    public static final class MissingTopics extends IllegalStateException {
        /** @param topics the evidence topics without a partition, in {@link #EVIDENCE_TOPICS} order */
        public MissingTopics(List<String> topics) {
            super("no partition of " + String.join(", ", topics) + " (missing on the broker)");
        }
    }

    /**
     * @return the end offset of every partition of the evidence topics, keyed {@code "topic/partition"}
     * @throws MissingTopics when the ledger reports no partition of one of them or more
     */
    public static Map<String, Long> snapshot(List<Partition> partitions) {
        List<String> missing = EVIDENCE_TOPICS.stream()
                .filter(topic -> partitions.stream().noneMatch(p -> topic.equals(p.topic()))).toList();
        if (!missing.isEmpty()) {
            throw new MissingTopics(missing);
        }
        Map<String, Long> ends = new HashMap<>();
        partitions.stream().filter(p -> EVIDENCE_TOPICS.contains(p.topic()))
                .forEach(p -> ends.put(p.topic() + "/" + p.partition(), p.end()));
        return ends;
    }

    /**
     * @param snapshot the {@link #snapshot} taken when the request arrived
     * @param now      the ledger's progress now; a partition absent from it counts as nothing consumed
     * @return records still to store per topic (in {@link #EVIDENCE_TOPICS} order), only topics with some; empty
     *         when the ledger has stored everything up to the snapshot
     */
    public static Map<String, Long> behind(Map<String, Long> snapshot, List<Partition> now) {
        Map<String, Long> consumed = new HashMap<>();
        now.forEach(p -> consumed.put(p.topic() + "/" + p.partition(), p.consumed()));
        Map<String, Long> byTopic = new LinkedHashMap<>();
        for (String topic : EVIDENCE_TOPICS) {
            long lag = 0;
            for (var end : snapshot.entrySet()) {
                if (end.getKey().startsWith(topic + "/")) {
                    lag += Math.max(0, end.getValue() - consumed.getOrDefault(end.getKey(), 0L));
                }
            }
            if (lag > 0) {
                byTopic.put(topic, lag);
            }
        }
        return byTopic;
    }

    /** @return e.g. {@code "object.verified 3 record(s) behind, gate.denied 1 record(s) behind"} */
    public static String describe(Map<String, Long> behind) {
        List<String> parts = new ArrayList<>();
        behind.forEach((topic, lag) -> parts.add(topic + " " + lag + " record(s) behind"));
        return String.join(", ", parts);
    }
}
