package io.stowage.shardbuilder.ledgerclient;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The ledger HTTP endpoint the shard-builder reads (docs/design/contract.md, "Ledger HTTP API"); a blocking call. */
@Path("/api")
public interface LedgerApi {

    /**
     * @param id an asset id, here {@code dataset/<dataset>/<revision>}
     * @return the JSON of {@link io.stowage.events.ledger.AssetEvidence}; throws WebApplicationException with 404
     *         when the ledger does not know the asset
     */
    @GET
    @Path("/assets")
    @Produces(MediaType.APPLICATION_JSON)
    String asset(@QueryParam("id") String id);
}
