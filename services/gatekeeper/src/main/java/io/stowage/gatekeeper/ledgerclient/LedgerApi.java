package io.stowage.gatekeeper.ledgerclient;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The three ledger HTTP endpoints the gatekeeper reads (docs/design/contract.md, "Ledger HTTP API"); blocking calls. */
@Path("/api")
public interface LedgerApi {

    /** @return the stored event's JSON; throws WebApplicationException with 404 when the ledger has not stored it */
    @GET
    @Path("/events/{eventId}")
    @Produces(MediaType.APPLICATION_JSON)
    String event(@PathParam("eventId") String eventId);

    /** @return the JSON of {@link io.stowage.events.ledger.ReleaseEvidence} for an absolute directory */
    @GET
    @Path("/evidence")
    @Produces(MediaType.APPLICATION_JSON)
    String evidence(@QueryParam("path") String path);

    /**
     * @return the JSON of the ledger's lag: {@code {"partitions":[{"topic","partition","consumed","end","lag"}…]}},
     *         consumed being its consumer group's committed offset; throws WebApplicationException with 503 when the
     *         ledger cannot read Kafka
     */
    @GET
    @Path("/lag")
    @Produces(MediaType.APPLICATION_JSON)
    String lag();
}
