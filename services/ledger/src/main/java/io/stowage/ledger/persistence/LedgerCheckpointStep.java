package io.stowage.ledger.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.events.EventCodec;
import io.stowage.ledger.domain.CheckpointStepRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Table {@code ledger_checkpoint_step} (V31; lease_until V37; retention V39): retention's view of one checkpoint step, from a {@link CheckpointStepRecord}. */
@Entity
@Table(name = "ledger_checkpoint_step", indexes = @Index(name = "ledger_checkpoint_step_run", columnList = "experiment, run, step"))
public class LedgerCheckpointStep extends PanacheEntityBase {
    @Id
    @Column(name = "asset_id")
    public String assetId;
    @Column(name = "experiment", nullable = false)
    public String experiment;
    @Column(name = "run", nullable = false)
    public String run;
    @Column(name = "step", nullable = false)
    public long step;
    @Column(name = "metrics", nullable = false, columnDefinition = "text")
    public String metrics;
    @Column(name = "tags", nullable = false, columnDefinition = "text")
    public String tags;
    @Column(name = "published_at")
    public Instant publishedAt;
    @Column(name = "published_event_id")
    public String publishedEventId;
    @Column(name = "file_count", nullable = false)
    public int fileCount;
    @Column(name = "total_bytes", nullable = false)
    public long totalBytes;
    @Column(name = "pinned", nullable = false)
    public boolean pinned;
    @Column(name = "pin_event_id")
    public String pinEventId;
    @Column(name = "pin_at")
    public Instant pinAt;
    @Column(name = "expired_event_id")
    public String expiredEventId;
    @Column(name = "expired_at")
    public Instant expiredAt;
    @Column(name = "expired_bytes", nullable = false)
    public long expiredBytes;
    @Column(name = "lease_until")
    public Instant leaseUntil;
    /** The capsule's retention policy at publish as JSON (the event's field names), null when none. */
    @Column(name = "retention", columnDefinition = "text")
    public String retention;

    /** @return this row as a domain record */
    public CheckpointStepRecord toRecord() {
        return new CheckpointStepRecord(assetId, experiment, run, step, read(metrics, new TypeReference<Map<String, Double>>() { }),
                read(tags, new TypeReference<List<String>>() { }), publishedAt, publishedEventId, fileCount, totalBytes, pinned, pinEventId,
                pinAt, expiredEventId, expiredAt, expiredBytes, leaseUntil,
                retention == null ? null : read(retention, new TypeReference<io.stowage.events.RetentionDecided.Policy>() { }));
    }

    /** Copies every field of {@code r} into this row. */
    public LedgerCheckpointStep set(CheckpointStepRecord r) {
        assetId = r.assetId();
        experiment = r.experiment();
        run = r.run();
        step = r.step();
        metrics = write(new java.util.TreeMap<>(r.metrics())); // sorted: the same text whichever JVM wrote it
        tags = write(r.tags());
        publishedAt = r.publishedAt();
        publishedEventId = r.publishedEventId();
        fileCount = r.fileCount();
        totalBytes = r.totalBytes();
        pinned = r.pinned();
        pinEventId = r.pinEventId();
        pinAt = r.pinAt();
        expiredEventId = r.expiredEventId();
        expiredAt = r.expiredAt();
        expiredBytes = r.expiredBytes();
        leaseUntil = r.leaseUntil();
        retention = r.retention() == null ? null : write(r.retention());
        return this;
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return EventCodec.mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("ledger_checkpoint_step " + "holds malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String write(Object value) {
        try {
            return EventCodec.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
