package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.mutiny.Uni;
import io.stowage.ledger.persistence.LedgerEvent;
import io.stowage.ledger.persistence.LedgerQueries;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;

/** Serves the audit trail: one stored event by id, or the events of one asset. */
@Path("/api/events")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class EventResource {
    private final LedgerQueries queries;

    @Inject
    public EventResource(LedgerQueries queries) {
        this.queries = queries;
    }

    /** @return 200 when the ledger stored the event (the gatekeeper's "ledger is not behind" check), else 404 */
    @GET
    @Path("/{eventId}")
    public Uni<RestResponse<EventReceipt>> event(@PathParam("eventId") String eventId) {
        return queries.event(eventId).map(e -> e == null
                ? RestResponse.notFound()
                : RestResponse.ok(new EventReceipt(e.eventId, e.topic, e.assetId)));
    }

    /** @return the events whose asset id (Kafka key) is {@code assetId}, oldest first; 400 without it */
    @GET
    public Uni<RestResponse<List<EventSummary>>> eventsOf(@QueryParam("assetId") String assetId) {
        if (assetId == null || assetId.isBlank()) {
            return Uni.createFrom().item(RestResponse.status(RestResponse.Status.BAD_REQUEST));
        }
        return queries.eventsOf(assetId).map(rows -> RestResponse.ok(rows.stream().map(EventResource::summary).toList()));
    }

    private static EventSummary summary(LedgerEvent e) {
        return new EventSummary(e.eventId, e.topic, e.type, e.eventTime, e.deadLetter, e.reason);
    }
}
