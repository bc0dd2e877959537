package io.stowage.verifier.api;

import io.smallrye.common.annotation.Blocking;
import io.stowage.auth.Roles;
import io.stowage.verifier.app.MemberListing;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/members?key=&store=primary&limit=1000} (reader token): a stored member manifest's entries, for the
 * operator console's shard view. The rules are {@link MemberListing}'s: a manifest the ledger records, read whole,
 * shown only when it hashes to the ledger's SHA-256.
 */
@Path("/api/members")
@Produces(MediaType.APPLICATION_JSON)
public class MemberResource {
    private final MemberListing listing;

    MemberResource(MemberListing listing) {
        this.listing = listing;
    }

    /**
     * @return 200 with {@code {"key","store","sha256","bytes","total","members":[{"path","bytes","sha256"}…]}} (the first
     *         {@code limit}, 1–10,000, in tar order); 400 without a key, with another store or limit; 404 when the ledger
     *         records no member manifest at the key; 409 when the stored bytes are missing, do not hash to the ledger's
     *         SHA-256 or are not a valid manifest; 413 above 64 MiB; 503 when the ledger or the store cannot be asked
     */
    @GET
    @RolesAllowed(Roles.READER)
    @Blocking
    public Response members(@QueryParam("key") String key, @QueryParam("store") @DefaultValue("primary") String store,
                            @QueryParam("limit") @DefaultValue("1000") int limit) {
        if (key == null || key.isBlank()) {
            return error(400, "key is required");
        }
        if (limit < 1 || limit > 10_000) {
            return error(400, "limit must be from 1 to 10000");
        }
        MemberListing.Listing l = listing.list(store, key, limit);
        if (l.refusal() != null) {
            return error(switch (l.refusal()) {
                case BAD_INPUT -> 400;
                case NOT_FOUND -> 404;
                case TOO_LARGE -> 413;
                case NOT_AS_RECORDED -> 409;
                case UNAVAILABLE -> 503;
            }, l.reason());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key", key);
        out.put("store", store);
        out.put("sha256", l.sha256());
        out.put("bytes", l.bytes());
        out.put("total", l.total());
        out.put("members", l.members());
        return Response.ok(out).build();
    }

    private static Response error(int status, String message) {
        return Response.status(status).entity(Map.of("error", message.replaceAll("[\\r\\n]+", " "))).build();
    }
}
