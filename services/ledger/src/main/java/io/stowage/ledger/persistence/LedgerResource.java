package io.stowage.ledger.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.events.EventCodec;
import io.stowage.ledger.domain.ResourceRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** Table {@code ledger_resource} (migration V20): one provider volume or pod; alert blockers kept as JSON text. */
@Entity
@Table(name = "ledger_resource")
public class LedgerResource extends PanacheEntityBase {
    private static final TypeReference<List<String>> LINES = new TypeReference<>() {
    };

    @Id
    @Column(name = "resource_key")
    public String key;
    @Column(name = "kind", nullable = false)
    public String kind;
    @Column(name = "resource_id", nullable = false)
    public String resourceId;
    @Column(name = "provider")
    public String provider;
    @Column(name = "name")
    public String name;
    @Column(name = "purpose")
    public String purpose;
    @Column(name = "size_gb", nullable = false)
    public int sizeGb;
    @Column(name = "cost_per_hour_usd", precision = 20, scale = 6)
    public BigDecimal costPerHourUsd;
    @Column(name = "path", columnDefinition = "text")
    public String path;
    @Column(name = "run_id")
    public String runId;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "expires_at")
    public Instant expiresAt;
    @Column(name = "cap_usd", precision = 20, scale = 6)
    public BigDecimal capUsd;
    @Column(name = "state", nullable = false)
    public String state;
    @Column(name = "ended_at")
    public Instant endedAt;
    @Column(name = "lifetime_seconds")
    public Long lifetimeSeconds;
    @Column(name = "cost_usd", precision = 20, scale = 6)
    public BigDecimal costUsd;
    @Column(name = "end_reason")
    public String endReason;
    @Column(name = "release_request_id")
    public String releaseRequestId;
    @Column(name = "alert_count", nullable = false)
    public int alertCount;
    @Column(name = "last_alert_code")
    public String lastAlertCode;
    @Column(name = "last_alert_detail", columnDefinition = "text")
    public String lastAlertDetail;
    @Column(name = "last_alert_blockers", columnDefinition = "text")
    public String lastAlertBlockers;

    /** @return this row as a domain record */
    public ResourceRecord toRecord() {
        try {
            List<String> blockers = lastAlertBlockers == null ? List.of()
                    : EventCodec.mapper().readValue(lastAlertBlockers, LINES);
            return new ResourceRecord(key, kind, resourceId, provider, name, purpose, sizeGb, costPerHourUsd, path,
                    runId, createdAt, expiresAt, capUsd, state, endedAt, lifetimeSeconds, costUsd, endReason,
                    releaseRequestId, alertCount, lastAlertCode, lastAlertDetail, blockers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("ledger_resource " + key + ": unreadable blockers", e);
        }
    }

    /** Copies every field of {@code r} into this row. */
    public LedgerResource set(ResourceRecord r) {
        key = r.key();
        kind = r.kind();
        resourceId = r.id();
        provider = r.provider();
        name = r.name();
        purpose = r.purpose();
        sizeGb = r.sizeGb();
        costPerHourUsd = r.costPerHourUsd();
        path = r.path();
        runId = r.runId();
        createdAt = r.createdAt();
        expiresAt = r.expiresAt();
        capUsd = r.capUsd();
        state = r.state();
        endedAt = r.endedAt();
        lifetimeSeconds = r.lifetimeSeconds();
        costUsd = r.costUsd();
        endReason = r.endReason();
        releaseRequestId = r.releaseRequestId();
        alertCount = r.alertCount();
        lastAlertCode = r.lastAlertCode();
        lastAlertDetail = r.lastAlertDetail();
        try {
            lastAlertBlockers = EventCodec.mapper().writeValueAsString(r.lastAlertBlockers());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write blockers of " + r.key(), e);
        }
        return this;
    }
}
