package io.stowage.console.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.EventCodec;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * {@code GET /events/ID}: one ledger event as stored, the page a release condition's evidence id links to. The ledger's
 * {@code GET /api/events/ID} names its topic and asset; {@code GET /api/events?assetId=} gives its type, time (else the payload's {@code meta.time}) and
 * dead-letter reason; {@code GET /api/payloads} its payload (the first 1,000 of that asset on that topic are read).
 * An id the ledger does not hold is a 404 page.
 */
@Path("/events")
@Produces(MediaType.TEXT_HTML)
public class EventResource {
    private final Viewers viewers;
    private final LedgerApi ledger;

    EventResource(Viewers viewers, @RestClient LedgerApi ledger) {
        this.viewers = viewers;
        this.ledger = ledger;
    }

    /** @return the event page; 404 when the ledger holds no such event */
    @GET
    @Path("{eventId}")
    public TemplateInstance event(@PathParam("eventId") String eventId) {
        Viewer viewer = viewers.require();
        JsonNode receipt = ledger.event(viewer.authorization(), eventId);
        String topic = Answers.text(receipt, "topic");
        String assetId = Answers.text(receipt, "assetId");
        JsonNode summary = null;
        for (JsonNode e : Answers.iterable(ledger.events(viewer.authorization(), assetId))) {
            if (eventId.equals(Answers.text(e, "eventId"))) {
                summary = e;
            }
        }
        JsonNode payload = null;
        for (JsonNode e : Answers.iterable(ledger.payloads(viewer.authorization(), assetId, topic))) {
            if (eventId.equals(Answers.text(e, "eventId"))) {
                payload = e.get("payload");
            }
        }
        return Templates.event(Pages.who(viewer), new Views.Event(eventId, topic, assetId,
                summary == null ? "—" : or(Answers.text(summary, "type")),
                or(summary == null || Answers.text(summary, "eventTime") == null
                        ? payload == null ? null : Answers.text(payload.path("meta"), "time") : Answers.text(summary, "eventTime")),
                summary != null && summary.path("deadLetter").asBoolean(),
                summary == null ? null : Answers.text(summary, "reason"), pretty(payload)));
    }

    private static String pretty(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return null;
        }
        try {
            return EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            return payload.toString();
        }
    }

    private static String or(String value) {
        return value == null ? "—" : value;
    }
}
