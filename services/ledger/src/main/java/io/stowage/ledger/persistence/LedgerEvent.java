package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.ledger.domain.StoredEvent;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

import java.time.Instant;

/** Table {@code ledger_event}: one row per event id, main-topic events and dead letters alike. */
@Entity
@Table(name = "ledger_event", indexes = @Index(name = "ledger_event_asset", columnList = "asset_id, event_time"))
public class LedgerEvent extends PanacheEntityBase {
    @Id
    @Column(name = "event_id")
    public String eventId;
    @Column(name = "topic", nullable = false)
    public String topic;
    @Column(name = "type")
    public String type;
    @Column(name = "asset_id")
    public String assetId;
    @Column(name = "correlation_id")
    public String correlationId;
    @Column(name = "causation_id")
    public String causationId;
    @Column(name = "event_time")
    public Instant eventTime;
    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;
    @Column(name = "kafka_partition", nullable = false)
    public int kafkaPartition;
    @Column(name = "kafka_offset", nullable = false)
    public long kafkaOffset;
    @Column(name = "payload", columnDefinition = "text")
    public String payload;
    @Column(name = "dead_letter", nullable = false)
    public boolean deadLetter;
    @Column(name = "reason", columnDefinition = "text")
    public String reason;
    /** Place in the hash chain: 1 for the first row, no gaps. */
    @Column(name = "seq", nullable = false, unique = true)
    public long seq;
    /** hex SHA-256 link over the previous row's link and this row's canonical JSON ({@code EventChain}). */
    @Column(name = "chain_hash", nullable = false, length = 64)
    public String chainHash;

    /** @return a new, unsaved row holding {@code e} at place {@code seq} of the chain with link {@code chainHash} */
    public static LedgerEvent from(StoredEvent e, long seq, String chainHash) {
        LedgerEvent row = new LedgerEvent();
        row.eventId = e.eventId();
        row.topic = e.topic();
        row.type = e.type();
        row.assetId = e.assetId();
        row.correlationId = e.correlationId();
        row.causationId = e.causationId();
        row.eventTime = e.eventTime();
        row.recordedAt = e.recordedAt();
        row.kafkaPartition = e.partition();
        row.kafkaOffset = e.offset();
        row.payload = e.payload();
        row.deadLetter = e.deadLetter();
        row.reason = e.reason();
        row.seq = seq;
        row.chainHash = chainHash;
        return row;
    }
}
