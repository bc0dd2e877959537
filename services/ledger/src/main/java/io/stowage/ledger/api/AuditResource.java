package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.smallrye.common.annotation.Blocking;
import io.stowage.ledger.domain.ChainReport;
import io.quarkus.security.identity.SecurityIdentity;
import io.stowage.ledger.domain.ReplayRecord;
import io.stowage.ledger.domain.ReplayReport;
import io.stowage.ledger.persistence.ReplayRecords;
import org.jboss.resteasy.reactive.RestResponse;
import io.stowage.ledger.messaging.AuditReplay;
import io.stowage.ledger.persistence.ChainQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** Serves audit checks over the ledger's own rows; consumed by {@code stowage audit}. */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class AuditResource {
    private final ChainQueries chain;
    private final AuditReplay replay;
    private final ReplayRecords records;
    private final SecurityIdentity identity;

    @Inject
    public AuditResource(ChainQueries chain, AuditReplay replay, ReplayRecords records, SecurityIdentity identity) {
        this.chain = chain;
        this.replay = replay;
        this.records = records;
        this.identity = identity;
    }

    /**
     * Replays every audit topic from the beginning into a fresh projection schema and compares it with the live
     * projections (seconds to minutes; one at a time).
     *
     * @param scope compare only rows whose asset id (request id for releases) contains it; absent for all
     * @param keep  keep the replay schema for inspection
     * @return 200 with the {@link ReplayReport}, recorded (its summary, who asked, when) before it is answered; 500 when
     *         PostgreSQL or Kafka fails (nothing recorded)
     */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/replay")
    @Blocking
    public ReplayReport replay(@QueryParam("scope") @DefaultValue("") String scope,
                               @QueryParam("keep") @DefaultValue("false") boolean keep) throws java.sql.SQLException {
        ReplayReport report = replay.run(scope, keep);
        records.record(ReplayRecord.of(report, identity.getPrincipal().getName(), Instant.now()));
        return report;
    }

    /**
     * @param limit how many at most, 1–100
     * @return 200 with the newest recorded replays first ({@link ReplayRecord}s; an empty list when none ran); 400 for
     *         a limit out of range; 500 when PostgreSQL fails
     */
    @GET
    @Path("/replays")
    @Blocking
    public RestResponse<List<ReplayRecord>> replays(@QueryParam("limit") @DefaultValue("10") int limit)
            throws java.sql.SQLException {
        if (limit < 1 || limit > 100) {
            return RestResponse.status(RestResponse.Status.BAD_REQUEST);
        }
        return RestResponse.ok(records.newest(limit));
    }

    /**
     * Recomputes the whole hash chain (seconds per million rows; meant for an operator, not for every request).
     *
     * @return 200 with {@code {"rows":N,"ok":…,"firstBrokenSeq":…,"firstBrokenEventId":…,"reason":…}}; the nulls
     *         are written when the chain is intact
     */
    @GET
    @Path("/chain")
    public Uni<ChainReport> chain() {
        return chain.verify();
    }
}
