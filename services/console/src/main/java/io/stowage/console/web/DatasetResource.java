package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.client.VerifierApi;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.AssetIds;
import io.stowage.events.ObjectKind;
import io.stowage.events.Topics;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code /datasets}, {@code /datasets/NAME} and {@code /datasets/NAME/REVISION}: dataset revisions with licence and
 * source, and each shard's SHA-256, bytes, member count (from its {@code shard.built}) and every verification;
 * {@code /datasets/NAME/REVISION/members?key=} a shard's member manifest as the verifier read it from the store
 * ({@code GET /api/members}: shown only when it hashes to the ledger's SHA-256).
 */
@Path("/datasets")
@Produces(MediaType.TEXT_HTML)
public class DatasetResource {
    /** Members a member manifest page shows at most. */
    static final int MEMBERS_SHOWN = 2000;

    private final Viewers viewers;
    private final LedgerApi ledger;
    private final VerifierApi verifier;

    DatasetResource(Viewers viewers, @RestClient LedgerApi ledger, VerifierApi verifier) {
        this.viewers = viewers;
        this.ledger = ledger;
        this.verifier = verifier;
    }

    /** @return every dataset with its revisions */
    @GET
    public TemplateInstance datasets() {
        Viewer viewer = viewers.require();
        List<Views.DatasetRow> rows = AssetIndex.datasets(AssetIndex.names(ledger, viewer)).entrySet().stream()
                .map(e -> new Views.DatasetRow(e.getKey(), e.getValue())).toList();
        return Templates.datasets(Pages.who(viewer), rows);
    }

    /** @return one dataset's revisions; 404 when the ledger knows none */
    @GET
    @Path("/{name}")
    public TemplateInstance dataset(@PathParam("name") String name) {
        Viewer viewer = viewers.require();
        List<String> revisions = AssetIndex.datasets(AssetIndex.names(ledger, viewer)).get(name);
        if (revisions == null) {
            throw new NotFoundException("no dataset " + name);
        }
        return Templates.dataset(Pages.who(viewer), new Views.DatasetRow(name, revisions));
    }

    /** @return one revision's shards; 404 when the ledger does not know it */
    @GET
    @Path("/{name}/{revision}")
    public TemplateInstance revision(@PathParam("name") String name, @PathParam("revision") String revision) {
        Viewer viewer = viewers.require();
        String id = AssetIds.dataset(name, revision);
        AssetEvidence asset = ledger.asset(viewer.authorization(), id);
        List<Views.Verification> history = Answers.verifications(
                ledger.payloads(viewer.authorization(), id, Topics.OBJECT_VERIFIED));
        JsonNode built = ledger.payloads(viewer.authorization(), id, Topics.SHARD_BUILT);
        List<Views.Shard> shards = new ArrayList<>();
        for (JsonNode e : Answers.iterable(built)) {
            shards.add(shard(e.path("payload"), asset.objects(), history));
        }
        shards.sort(Comparator.comparingInt(Views.Shard::index));
        List<Views.Copy> others = asset.objects().stream()
                .filter(o -> o.kind() != ObjectKind.SHARD && o.kind() != ObjectKind.MEMBERS)
                .map(o -> Answers.copy(o, history)).toList();
        return Templates.revision(Pages.who(viewer), new Views.Revision(name, revision, id, asset.sealed(), asset.license(),
                asset.source(), asset.manifestSha256(), shards, others));
    }

    /**
     * @return a member manifest of the revision, as the verifier read it from the store and matched to the ledger's
     *         SHA-256 (the first {@link #MEMBERS_SHOWN} members); 400 for a key outside the revision, the verifier's
     *         404/409 as pages with its reason
     */
    @GET
    @Path("/{name}/{revision}/members")
    public TemplateInstance members(@PathParam("name") String name, @PathParam("revision") String revision,
                                    @QueryParam("key") String key) {
        Viewer viewer = viewers.require();
        AssetIds.dataset(name, revision);
        String prefix = "datasets/" + name + "/" + revision + "/";
        if (key == null || key.isBlank()) {
            throw new jakarta.ws.rs.BadRequestException("a member manifest page needs ?key=, the manifest's key"
                    + " (each shard's \"view\" link gives it)");
        }
        if (!key.startsWith(prefix) || !key.endsWith(".members.jsonl")) {
            throw new jakarta.ws.rs.BadRequestException("not a member manifest of " + name + " " + revision + ": " + key);
        }
        JsonNode m = Refusals.asked(() -> verifier.members(viewer.authorization(), key, "primary", MEMBERS_SHOWN));
        List<Views.Member> members = new ArrayList<>();
        for (JsonNode e : Answers.iterable(m.path("members"))) {
            members.add(new Views.Member(Answers.text(e, "path"), e.path("bytes").asLong(), Answers.text(e, "sha256")));
        }
        return Templates.members(Pages.who(viewer), new Views.Members(name, revision, key, Answers.text(m, "sha256"),
                m.path("bytes").asLong(), m.path("total").asInt(), members));
    }

    private static Views.Shard shard(JsonNode built, List<ObjectEvidence> objects, List<Views.Verification> history) {
        String sha = Answers.text(built, "sha256");
        String membersSha = Answers.text(built, "membersSha256");
        List<ObjectEvidence> copies = objects.stream().filter(o -> o.kind() == ObjectKind.SHARD && sha.equals(o.sha256())).toList();
        String key = copies.isEmpty() ? "(not uploaded yet)" : copies.get(0).key();
        String membersKey = objects.stream().filter(o -> o.kind() == ObjectKind.MEMBERS && membersSha != null
                && membersSha.equals(o.sha256())).map(ObjectEvidence::key).findFirst().orElse("—");
        List<Views.Verification> mine = history.stream()
                .filter(v -> copies.stream().anyMatch(c -> c.key().equals(v.key())) || membersKey.equals(v.key())).toList();
        return new Views.Shard(built.path("index").asInt(), key, sha, built.path("bytes").asLong(),
                String.valueOf(built.path("memberCount").asInt()), membersKey, membersSha,
                copies.stream().map(o -> Answers.copy(o, history)).toList(), mine);
    }

}
