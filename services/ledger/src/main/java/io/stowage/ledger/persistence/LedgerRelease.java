package io.stowage.ledger.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.events.EventCodec;
import io.stowage.events.FailedCondition;
import io.stowage.events.ledger.ReleasePlan;
import io.stowage.ledger.domain.ReleaseRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.util.List;

/** Table {@code ledger_release}: one release request; the failed conditions are kept as JSON text. */
@Entity
@Table(name = "ledger_release")
public class LedgerRelease extends PanacheEntityBase {
    private static final TypeReference<List<FailedCondition>> FAILED = new TypeReference<>() {
    };

    @Id
    @Column(name = "request_id")
    public String requestId;
    @Column(name = "path", columnDefinition = "text")
    public String path;
    @Column(name = "dry_run", nullable = false)
    public boolean dryRun;
    @Column(name = "gate", nullable = false)
    public String gate;
    @Column(name = "failed", nullable = false, columnDefinition = "text")
    public String failed;
    @Column(name = "released", nullable = false)
    public boolean released;
    @Column(name = "failure_reason", columnDefinition = "text")
    public String failureReason;
    /** The gate's decision as {@link ReleasePlan} JSON; null while pending. */
    @Column(name = "plan", columnDefinition = "text")
    public String plan;

    /** @return this row as a domain record; @throws IllegalStateException when the failed JSON is unreadable */
    public ReleaseRecord toRecord() {
        try {
            List<FailedCondition> conditions = EventCodec.mapper().readValue(failed, FAILED);
            ReleasePlan decision = plan == null ? null : EventCodec.mapper().readValue(plan, ReleasePlan.class);
            return new ReleaseRecord(requestId, path, dryRun, gate, conditions, released, failureReason, decision);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("ledger_release " + requestId + ": unreadable failed conditions", e);
        }
    }

    /** Copies every field of {@code r} into this row. */
    public LedgerRelease set(ReleaseRecord r) {
        try {
            requestId = r.requestId();
            path = r.path();
            dryRun = r.dryRun();
            gate = r.gate();
            failed = EventCodec.mapper().writeValueAsString(r.failed());
            released = r.released();
            failureReason = r.failureReason();
            plan = r.plan() == null ? null : EventCodec.mapper().writeValueAsString(r.plan());
            return this;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write failed conditions of " + r.requestId(), e);
        }
    }
}
