package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.ledger.domain.ObjectRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

import java.time.Instant;

/** Table {@code ledger_object}: one object in one store (unique store, bucket, key), from an {@link ObjectRecord}. */
@Entity
@Table(name = "ledger_object",
        uniqueConstraints = @UniqueConstraint(name = "ledger_object_address", columnNames = {"store", "bucket", "object_key"}),
        indexes = @Index(name = "ledger_object_asset", columnList = "asset_id"))
public class LedgerObject extends PanacheEntityBase {
    /** From sequence {@code ledger_object_id_pool}, 50 at a time (migration V4), so a batch's inserts are batched too. */
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "ledger_object_id")
    @SequenceGenerator(name = "ledger_object_id", sequenceName = "ledger_object_id_pool", allocationSize = 50)
    public Long id;
    @Column(name = "store", nullable = false)
    public String store;
    @Column(name = "bucket", nullable = false)
    public String bucket;
    @Column(name = "object_key", nullable = false, columnDefinition = "text")
    public String objectKey;
    @Column(name = "asset_id")
    public String assetId;
    @Enumerated(EnumType.STRING)
    @Column(name = "kind")
    public ObjectKind kind;
    @Column(name = "bytes", nullable = false)
    public long bytes;
    @Column(name = "sha256")
    public String sha256;
    @Column(name = "etag")
    public String etag;
    @Column(name = "local_path", columnDefinition = "text")
    public String localPath;
    @Column(name = "uploaded_at")
    public Instant uploadedAt;
    @Enumerated(EnumType.STRING)
    @Column(name = "head_result")
    public VerifyResult headResult;
    @Column(name = "head_verified_at")
    public Instant headVerifiedAt;
    @Enumerated(EnumType.STRING)
    @Column(name = "full_read_result")
    public VerifyResult fullReadResult;
    @Column(name = "full_read_verified_at")
    public Instant fullReadVerifiedAt;
    @Column(name = "uploaded_event_id")
    public String uploadedEventId;
    @Column(name = "head_event_id")
    public String headEventId;
    @Column(name = "full_read_event_id")
    public String fullReadEventId;

    /** @return this row as a domain record */
    public ObjectRecord toRecord() {
        return new ObjectRecord(store, bucket, objectKey, assetId, kind, bytes, sha256, etag, localPath, uploadedAt,
                headResult, headVerifiedAt, fullReadResult, fullReadVerifiedAt, uploadedEventId, headEventId,
                fullReadEventId);
    }

    /** Copies every field of {@code r} into this row (the generated id is kept). */
    public LedgerObject set(ObjectRecord r) {
        store = r.store();
        bucket = r.bucket();
        objectKey = r.key();
        assetId = r.assetId();
        kind = r.kind();
        bytes = r.bytes();
        sha256 = r.sha256();
        etag = r.etag();
        localPath = r.localPath();
        uploadedAt = r.uploadedAt();
        headResult = r.headResult();
        headVerifiedAt = r.headAt();
        fullReadResult = r.fullReadResult();
        fullReadVerifiedAt = r.fullReadAt();
        uploadedEventId = r.uploadedEventId();
        headEventId = r.headEventId();
        fullReadEventId = r.fullReadEventId();
        return this;
    }
}
