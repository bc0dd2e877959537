package io.stowage.ledger.domain;

import io.stowage.events.Topics;
import io.stowage.events.ledger.DeadLetterNote;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which dead letters about an asset the gate must see. A dead letter on an evidence topic is a record about the asset
 * that was never stored as evidence: an {@code object.verified} that did not decode may have been a {@code MISMATCH},
 * so the newest result the ledger holds for an object may not be the newest result there was. Such a dead letter
 * counts until every object of the asset, in every store, has a FULL_READ result stored after it (a higher ledger
 * sequence): then every object was re-read in full since, and those results are what the gate judges. A HEAD after
 * it does not outweigh it (a flipped byte keeps the size). Dead letters without an asset id are not tied to any asset.
 * A dead letter whose event the ledger stored from the main topic (the same {@code ce_id}: a service that consumed it
 * dead-lettered its copy, e.g. the uploader refusing a step whose files changed) lost nothing and does not count.
 */
public final class DeadLetterEvidence {
    /** The dead-letter topics of the topics the gate reads as evidence. */
    public static final Set<String> TOPICS = Topics.EVIDENCE.stream().map(Topics::dlq)
            .collect(Collectors.toUnmodifiableSet());

    private DeadLetterEvidence() {
    }

    /**
     * One dead-letter row of the ledger.
     *
     * @param seq            its place in the ledger's hash chain
     * @param originalStored true when the ledger also holds the event itself (event id = this row's id without
     *                       {@code dlq:}), read from the main topic
     */
    public record Row(String eventId, String assetId, String topic, String reason, long seq, boolean originalStored) {
    }

    /** Prefix of a dead-letter row's event id before the original {@code ce_id}. */
    public static final String PREFIX = "dlq:";

    /** @return the event id of the record a dead-letter row holds ({@code dlq:<ce_id>} → {@code <ce_id>}), or null */
    public static String originalId(String deadLetterEventId) {
        return deadLetterEventId != null && deadLetterEventId.startsWith(PREFIX)
                ? deadLetterEventId.substring(PREFIX.length()) : null;
    }

    /**
     * @param deadLetters dead-letter rows (any asset, any topic: others are ignored)
     * @param objects     every object of the asset (other assets' objects are ignored)
     * @param seqOf       ledger sequence of each event id that may be an object's {@code fullReadEventId}
     * @return the dead letters of {@code assetId} on {@link #TOPICS} not yet outweighed, in ledger order
     */
    public static List<DeadLetterNote> outstanding(String assetId, List<Row> deadLetters, List<ObjectRecord> objects,
                                                   Map<String, Long> seqOf) {
        List<ObjectRecord> own = objects.stream().filter(o -> assetId.equals(o.assetId())).toList();
        long reReadSince = own.isEmpty() ? Long.MIN_VALUE : own.stream()
                .mapToLong(o -> o.fullReadEventId() == null ? Long.MIN_VALUE
                        : Objects.requireNonNullElse(seqOf.get(o.fullReadEventId()), Long.MIN_VALUE))
                .min().orElse(Long.MIN_VALUE);
        return deadLetters.stream()
                .filter(d -> assetId.equals(d.assetId()) && TOPICS.contains(d.topic()) && !d.originalStored()
                        && d.seq() > reReadSince)
                .sorted(java.util.Comparator.comparingLong(Row::seq))
                .map(d -> new DeadLetterNote(d.eventId(), d.topic(), d.reason()))
                .toList();
    }
}
