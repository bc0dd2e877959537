package io.stowage.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.events.ledger.ScrubCoverage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The ledger's read API as the console calls it (docs/design/contract.md, "Ledger HTTP API"), each call with the
 * signed-in person's {@code Authorization: Bearer …}. Blocking; a 4xx or 5xx answer throws
 * {@link jakarta.ws.rs.WebApplicationException} with its status.
 */
@RegisterRestClient(configKey = "ledger")
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface LedgerApi {
    /** Counts of events, assets, objects, decisions, releases and dead letters. */
    @GET
    @Path("/status")
    LedgerStatus status(@HeaderParam("Authorization") String authorization);

    /**
     * {@code [{"eventId","time","topic","kind","subject","detail"}…]}: the newest alerts (provider alerts, failed
     * releases and uploads, refused retention steps, verifications not OK, dead letters), newest first.
     */
    @GET
    @Path("/alerts")
    JsonNode alerts(@HeaderParam("Authorization") String authorization, @QueryParam("limit") int limit);

    /** {@code {"group","total","caughtUp","partitions":[…]}}: how far the ledger's consumer is behind. */
    @GET
    @Path("/lag")
    JsonNode lag(@HeaderParam("Authorization") String authorization);

    /** Scrub coverage of one store over 30 days. */
    @GET
    @Path("/coverage")
    ScrubCoverage coverage(@HeaderParam("Authorization") String authorization, @QueryParam("store") String store);

    /** {@code {"assets":[{"assetId","kind","localRoot","sealed","keyCheckpoint","revision"}…],"next"}}. */
    @GET
    @Path("/assets/index")
    JsonNode assets(@HeaderParam("Authorization") String authorization, @QueryParam("after") String after,
                    @QueryParam("limit") int limit);

    /** One asset's evidence; 404 when unknown. */
    @GET
    @Path("/assets")
    AssetEvidence asset(@HeaderParam("Authorization") String authorization, @QueryParam("id") String id);

    /** Every step of a run with metrics, tags, pin and expiry. */
    @GET
    @Path("/checkpoints/steps")
    RunCheckpoints steps(@HeaderParam("Authorization") String authorization, @QueryParam("experiment") String experiment,
                         @QueryParam("run") String run);

    /** {@code [{"requestedAt","requestedBy","outcome":ReleaseOutcome}…]}, newest first. */
    @GET
    @Path("/releases")
    JsonNode releases(@HeaderParam("Authorization") String authorization, @QueryParam("limit") int limit);

    /** One release request's outcome; 404 until the ledger saw it. */
    @GET
    @Path("/releases/{requestId}")
    ReleaseOutcome release(@HeaderParam("Authorization") String authorization, @PathParam("requestId") String requestId);

    /** {@code [{"eventId","eventTime","payload"}…]}: the recorded events of one asset on one topic. */
    @GET
    @Path("/payloads")
    JsonNode payloads(@HeaderParam("Authorization") String authorization, @QueryParam("assetId") String assetId,
                      @QueryParam("topic") String topic);

    /** {@code {"rows","ok","firstBrokenSeq","firstBrokenEventId","reason"}}: the hash chain recomputed (seconds per million rows). */
    @GET
    @Path("/audit/chain")
    JsonNode chain(@HeaderParam("Authorization") String authorization);

    /**
     * {@code [{"finishedAt","requestedBy","scope","identical","liveCaughtUp","records","events","differences","seconds"}…]}:
     * the newest recorded audit replays first.
     */
    @GET
    @Path("/audit/replays")
    JsonNode replays(@HeaderParam("Authorization") String authorization, @QueryParam("limit") int limit);

    /** {@code {"eventId","topic","assetId"}}: one stored event; 404 when the ledger holds no event of that id. */
    @GET
    @Path("/events/{eventId}")
    JsonNode event(@HeaderParam("Authorization") String authorization, @PathParam("eventId") String eventId);

    /** {@code [{"eventId","topic","type","eventTime","deadLetter","reason"}…]}: every event of one asset, oldest first. */
    @GET
    @Path("/events")
    JsonNode events(@HeaderParam("Authorization") String authorization, @QueryParam("assetId") String assetId);
}
