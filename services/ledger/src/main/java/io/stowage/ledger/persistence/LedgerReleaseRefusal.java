package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.smallrye.mutiny.Uni;
import io.stowage.events.ReleaseRefused;
import io.stowage.ledger.domain.RefusalRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.List;

/** Table {@code ledger_release_refusal} (V26): one release.refused event, keyed by its event id. */
@Entity
@Table(name = "ledger_release_refusal", indexes = @Index(name = "ledger_release_refusal_time", columnList = "event_time"))
public class LedgerReleaseRefusal extends PanacheEntityBase {
    @Id
    @Column(name = "event_id")
    public String eventId;
    @Column(name = "refusal_id", nullable = false)
    public String refusalId;
    @Column(name = "service", nullable = false)
    public String service;
    @Column(name = "method", nullable = false, length = 16)
    public String method;
    @Column(name = "path", nullable = false, columnDefinition = "text")
    public String path;
    @Column(name = "status", nullable = false)
    public int status;
    @Column(name = "reason", nullable = false)
    public String reason;
    @Column(name = "token_name")
    public String tokenName;
    @Column(name = "token_role")
    public String tokenRole;
    @Column(name = "remote")
    public String remote;
    @Column(name = "event_time", nullable = false)
    public Instant eventTime;

    /** @return a new, unsaved row for {@code e} */
    public static LedgerReleaseRefusal from(ReleaseRefused e) {
        LedgerReleaseRefusal row = new LedgerReleaseRefusal();
        row.eventId = e.meta().eventId();
        row.refusalId = e.refusalId();
        row.service = e.service();
        row.method = e.method();
        row.path = e.path();
        row.status = e.status();
        row.reason = e.reason();
        row.tokenName = e.tokenName();
        row.tokenRole = e.tokenRole();
        row.remote = e.remote();
        row.eventTime = e.meta().time();
        return row;
    }

    /**
     * @param limit at most this many rows, 1–1000
     * @return the newest refusals first (then by event id), in their own session
     */
    public static Uni<List<RefusalRecord>> newest(int limit) {
        return Panache.withSession(() -> LedgerReleaseRefusal.<LedgerReleaseRefusal>find("order by eventTime desc, eventId")
                        .page(0, limit).list())
                .map(rows -> rows.stream().map(LedgerReleaseRefusal::toRecord).toList());
    }

    /** @return this row as a domain record */
    public RefusalRecord toRecord() {
        return new RefusalRecord(eventId, refusalId, eventTime, service, method, path, status, reason, tokenName,
                tokenRole, remote);
    }
}
