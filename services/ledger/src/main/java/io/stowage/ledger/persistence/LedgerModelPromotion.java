package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.ledger.domain.ModelPromotionRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

import java.time.Instant;

/** Table {@code ledger_model_promotion} (V33): a model revision and the checkpoint step it was promoted from. */
@Entity
@Table(name = "ledger_model_promotion",
        indexes = @Index(name = "ledger_model_promotion_checkpoint", columnList = "checkpoint_asset_id"))
public class LedgerModelPromotion extends PanacheEntityBase {
    @Id
    @Column(name = "model_asset_id")
    public String modelAssetId;
    @Column(name = "checkpoint_asset_id", nullable = false)
    public String checkpointAssetId;
    @Column(name = "event_id", nullable = false)
    public String eventId;
    @Column(name = "promoted_at", nullable = false)
    public Instant promotedAt;

    /** @return this row as a domain record */
    public ModelPromotionRecord toRecord() {
        return new ModelPromotionRecord(modelAssetId, checkpointAssetId, eventId, promotedAt);
    }

    /** Copies every field of {@code r} into this row. */
    public LedgerModelPromotion set(ModelPromotionRecord r) {
        modelAssetId = r.modelAssetId();
        checkpointAssetId = r.checkpointAssetId();
        eventId = r.eventId();
        promotedAt = r.promotedAt();
        return this;
    }
}
