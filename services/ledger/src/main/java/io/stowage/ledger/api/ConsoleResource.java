package io.stowage.ledger.api;

import io.smallrye.mutiny.Uni;
import io.stowage.auth.Roles;
import io.stowage.ledger.domain.Alert;
import io.stowage.ledger.domain.EventPayload;
import io.stowage.ledger.domain.ReleaseListing;
import io.stowage.ledger.persistence.ConsoleQueries;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;

/**
 * Read-only listings the operator console pages through: {@code GET /api/releases} (every release request, newest
 * first), {@code GET /api/payloads?assetId=&topic=} (the recorded events of one asset on one topic) and
 * {@code GET /api/alerts} (the newest things an operator should look at).
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class ConsoleResource {
    /** The largest (and default) number of rows answered. */
    static final int MAX_LIMIT = 1000;

    private final ConsoleQueries queries;

    @Inject
    public ConsoleResource(ConsoleQueries queries) {
        this.queries = queries;
    }

    /**
     * @param limit requests to answer, 1 to {@value #MAX_LIMIT}
     * @return 200 with {@code [{"requestedAt","requestedBy","outcome":ReleaseOutcome}…]}, newest request first; 400 when
     *         the limit is out of range
     */
    @GET
    @Path("/releases")
    public Uni<RestResponse<List<ReleaseListing>>> releases(@QueryParam("limit") @DefaultValue("200") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.releases(limit).map(RestResponse::ok);
    }

    /**
     * @param assetId the asset (Kafka key), e.g. {@code dataset/speech/r1}; required
     * @param topic   the topic, e.g. {@code object.verified} or {@code shard.built}; required
     * @param limit   events to answer, 1 to {@value #MAX_LIMIT}
     * @return 200 with {@code [{"eventId","eventTime","payload":{…}}…]} in chain order; 400 without asset or topic
     */
    @GET
    @Path("/payloads")
    public Uni<RestResponse<List<EventPayload>>> payloads(@QueryParam("assetId") String assetId,
                                                          @QueryParam("topic") String topic,
                                                          @QueryParam("limit") @DefaultValue("1000") int limit) {
        if (assetId == null || assetId.isBlank() || topic == null || topic.isBlank() || limit < 1 || limit > MAX_LIMIT) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.payloads(assetId, topic, limit).map(RestResponse::ok);
    }

    /**
     * @param limit alerts to answer, 1 to {@value #MAX_LIMIT}
     * @return 200 with {@code [{"eventId","time","topic","kind","subject","detail"}…]} ({@link Alert}), newest first in
     *         the ledger's order: provider alerts, failed releases and uploads, refused retention steps, verifications
     *         whose result is not OK, and dead letters; 400 when the limit is out of range
     */
    @GET
    @Path("/alerts")
    public Uni<RestResponse<List<Alert>>> alerts(@QueryParam("limit") @DefaultValue("20") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.alerts(limit).map(RestResponse::ok);
    }
}
