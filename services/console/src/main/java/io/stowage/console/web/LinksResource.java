package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.VerifierApi;
import io.stowage.console.domain.LinkLifetime;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /links} (operator): a presigned download link for one object, made by the verifier ({@code POST /api/links},
 * the rules are its own: an allowed prefix, at most 7 days, a copy the ledger has proven and the store holds now). The
 * console shows the URL once, in the answer to the form; it is never logged, stored or put in an address, and the page
 * says {@code Cache-Control: no-store}. A reader gets 403 and nothing reaches the verifier.
 */
@Path("/links")
@Produces(MediaType.TEXT_HTML)
public class LinksResource {
    private static final Logger LOG = Logger.getLogger(LinksResource.class);
    /** The longest lifetime the verifier signs (SigV4's limit, 7 days); checked here to name the typed value. */
    static final long MAX_SECONDS = 604_800L;

    private final Viewers viewers;
    private final VerifierApi verifier;

    LinksResource(Viewers viewers, VerifierApi verifier) {
        this.viewers = viewers;
        this.verifier = verifier;
    }

    /** @return the form, {@code key} and {@code store} filled in when given (as the step page's links give them) */
    @GET
    public TemplateInstance form(@QueryParam("key") String key, @QueryParam("store") String store) {
        Viewer viewer = viewers.requireOperator("a presigned link");
        return Templates.links(Pages.who(viewer), new Views.LinkPage(key == null ? "" : key,
                store == null || store.isBlank() ? "primary" : store, "24h", null));
    }

    /** Operator: asks the verifier for the link and shows it once; 400/403/409 pages carry the verifier's reason. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response link(@FormParam("key") String key, @FormParam("store") String store,
                         @FormParam("expires") String expires) {
        Viewer viewer = viewers.requireOperator("a presigned link");
        if (key == null || key.isBlank()) {
            throw new BadRequestException("a presigned link needs a key");
        }
        long seconds;
        try {
            seconds = LinkLifetime.seconds(expires);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
        if (seconds > MAX_SECONDS) {
            throw new BadRequestException("expires '" + expires.strip() + "' is " + seconds
                    + " s; a presigned URL lives at most 7 days (" + MAX_SECONDS + " s)");
        }
        String inStore = store == null || store.isBlank() ? "primary" : store.strip();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("key", key.strip());
        body.put("store", inStore);
        body.put("expiresInSeconds", seconds);
        JsonNode answer = Refusals.asked(() -> verifier.link(viewer.authorization(), body));
        // the URL is not logged: it reads the object until it expires
        LOG.infof("%s got a presigned link to %s:%s until %s", viewer.name(), inStore, key.strip(),
                answer.path("expiresAt").asText());
        Views.Link link = new Views.Link(answer.path("url").asText(), answer.path("expiresAt").asText(),
                answer.path("sha256").asText(), answer.path("bytes").asLong());
        return Response.ok(Templates.links(Pages.who(viewer), new Views.LinkPage(key.strip(), inStore,
                expires == null ? "24h" : expires.strip(), link))).header("Cache-Control", "no-store").build();
    }

}
