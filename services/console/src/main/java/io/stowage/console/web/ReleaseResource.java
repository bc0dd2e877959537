package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.ConsoleConfig;
import io.stowage.console.client.GatekeeperApi;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.domain.FreeRow;
import io.stowage.console.domain.Release;
import io.stowage.console.domain.VolumeDirectory;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code /releases} (every request with its five conditions and outcome), {@code /releases/ID}, {@code /free} (each
 * releasable directory with its newest decision), and the operator's release: {@code POST /free/plan} asks the gate
 * for a dry run, the plan page asks for confirmation, {@code POST /free/release} asks for the release itself. Both go
 * through the gatekeeper's {@code POST /api/releases} in the operator's own name, as {@code stowage release} does;
 * only the provider-adapter deletes, after {@code gate.passed}.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class ReleaseResource {
    private static final Logger LOG = Logger.getLogger(ReleaseResource.class);

    private final Viewers viewers;
    private final LedgerApi ledger;
    private final GatekeeperApi gatekeeper;
    private final ConsoleConfig config;

    ReleaseResource(Viewers viewers, @RestClient LedgerApi ledger, GatekeeperApi gatekeeper,
                    ConsoleConfig config) {
        this.viewers = viewers;
        this.ledger = ledger;
        this.gatekeeper = gatekeeper;
        this.config = config;
    }

    /** @return every release request, newest first */
    @GET
    @Path("releases")
    public TemplateInstance releases() {
        Viewer viewer = viewers.require();
        return Templates.releases(Pages.who(viewer), Answers.releases(ledger.releases(viewer.authorization(), 1000)));
    }

    /** @return one request: its plan (with a confirmation for an operator after a passing dry run) or its outcome */
    @GET
    @Path("releases/{requestId}")
    public TemplateInstance release(@PathParam("requestId") String requestId) {
        Viewer viewer = viewers.require();
        Release release = Answers.releases(ledger.releases(viewer.authorization(), 1000)).stream()
                .filter(r -> requestId.equals(r.requestId())).findFirst()
                .orElseGet(() -> Answers.release(ledger.release(viewer.authorization(), requestId), null, null));
        return Templates.release(Pages.who(viewer), release);
    }

    /** @return every directory under the volume roots with its newest recorded decision */
    @GET
    @Path("free")
    public TemplateInstance free() {
        Viewer viewer = viewers.require();
        List<VolumeDirectory> directories = Answers.directories(gatekeeper.directories(viewer.authorization()));
        List<Release> releases = Answers.releases(ledger.releases(viewer.authorization(), 1000));
        return Templates.free(Pages.who(viewer), FreeRow.of(directories, releases));
    }

    /** Operator: a dry run of the gate on {@code path}; 303 to its plan. */
    @POST
    @Path("free/plan")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response plan(@FormParam("path") String path) {
        Viewer viewer = viewers.requireOperator("a dry run");
        return Response.seeOther(URI.create("/releases/" + encode(ask(viewer, listed(viewer, path), true)))).build();
    }

    /** Operator, after the plan page's confirmation: the release itself; 303 to its outcome. */
    @POST
    @Path("free/release")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response release(@FormParam("path") String path, @FormParam("confirm") String confirm) {
        Viewer viewer = viewers.requireOperator("a release");
        if (!"release".equals(confirm)) {
            throw new BadRequestException("a release needs the confirmation of its plan page");
        }
        return Response.seeOther(URI.create("/releases/" + encode(ask(viewer, listed(viewer, path), false)))).build();
    }


    /** Only a directory the gatekeeper lists as releasable is ever sent: no typed path reaches the gate from here. */
    private String listed(Viewer viewer, String path) {
        boolean known = Answers.directories(gatekeeper.directories(viewer.authorization())).stream()
                .anyMatch(d -> d.path().equals(path));
        if (!known) {
            throw new BadRequestException("not a directory under the volume roots: " + path);
        }
        return path;
    }

    /** Sends the request in the viewer's name and waits (up to the configured wait) until it is finished. */
    private String ask(Viewer viewer, String path, boolean dryRun) {
        JsonNode accepted = gatekeeper.release(viewer.authorization(), Map.of("path", path, "dryRun", dryRun));
        String requestId = Answers.text(accepted, "requestId");
        LOG.infof("%s asked to release %s (dryRun=%s): request %s", viewer.name(), path, dryRun, requestId);
        Instant deadline = Instant.now().plus(config.releaseWait());
        while (Instant.now().isBefore(deadline)) {
            try {
                if (Answers.release(ledger.release(viewer.authorization(), requestId), null, null).finished()) {
                    break;
                }
            } catch (WebApplicationException e) {
                if (e.getResponse().getStatus() != 404) {
                    throw e;
                }
            }
            pause();
        }
        return requestId;
    }

    private static void pause() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebApplicationException("interrupted while waiting for the gate", 503);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
