package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.ledger.domain.UploadFailureRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

import java.time.Instant;

/** Table {@code ledger_upload_failure}: one object.upload.failed event, keyed by its event id. */
@Entity
@Table(name = "ledger_upload_failure", indexes = @Index(name = "ledger_upload_failure_asset", columnList = "asset_id"))
public class LedgerUploadFailure extends PanacheEntityBase {
    @Id
    @Column(name = "event_id")
    public String eventId;
    @Column(name = "asset_id", nullable = false)
    public String assetId;
    @Column(name = "store")
    public String store;
    @Column(name = "object_key", columnDefinition = "text")
    public String objectKey;
    @Column(name = "reason", nullable = false, columnDefinition = "text")
    public String reason;
    @Column(name = "permanent", nullable = false)
    public boolean permanent;
    @Column(name = "event_time", nullable = false)
    public Instant eventTime;

    /** @return a new, unsaved row holding {@code r} */
    public static LedgerUploadFailure from(UploadFailureRecord r) {
        LedgerUploadFailure row = new LedgerUploadFailure();
        row.eventId = r.eventId();
        row.assetId = r.assetId();
        row.store = r.store();
        row.objectKey = r.key();
        row.reason = r.reason();
        row.permanent = r.permanent();
        row.eventTime = r.eventTime();
        return row;
    }

    /** @return this row as a domain record */
    public UploadFailureRecord toRecord() {
        return new UploadFailureRecord(eventId, assetId, store, objectKey, reason, permanent, eventTime);
    }
}
