package io.stowage.console.web;

import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.AssetIds;
import io.stowage.events.Topics;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code /runs}, {@code /runs/EXPERIMENT/RUN} and {@code /runs/EXPERIMENT/RUN/STEP}: stored checkpoint steps with
 * metrics, tags, pin, key, copies per store, which step is the newest verified one, and each step's provenance and
 * verification history.
 */
@Path("/runs")
@Produces(MediaType.TEXT_HTML)
public class RunResource {
    private final Viewers viewers;
    private final LedgerApi ledger;

    RunResource(Viewers viewers, @RestClient LedgerApi ledger) {
        this.viewers = viewers;
        this.ledger = ledger;
    }

    /** @return every run the ledger holds steps of */
    @GET
    public TemplateInstance runs() {
        Viewer viewer = viewers.require();
        return Templates.runs(Pages.who(viewer), AssetIndex.runs(AssetIndex.names(ledger, viewer)));
    }

    /** @return one run's steps; 404 when the ledger holds none */
    @GET
    @Path("/{experiment}/{run}")
    public TemplateInstance run(@PathParam("experiment") String experiment, @PathParam("run") String run) {
        Viewer viewer = viewers.require();
        AssetIds.run(experiment, run);
        RunCheckpoints steps = ledger.steps(viewer.authorization(), experiment, run);
        if (steps.steps().isEmpty()) {
            throw new NotFoundException("no stored step of " + experiment + "/" + run);
        }
        long latest = steps.steps().stream().filter(s -> s.expiredEventId() == null && verified(s.asset()))
                .mapToLong(CheckpointStepEvidence::step).max().orElse(-1);
        List<Views.Step> rows = steps.steps().stream().map(s -> step(s, latest)).toList();
        return Templates.run(Pages.who(viewer), new Views.Run(experiment, run, rows, latest < 0 ? "none yet" : "step " + latest));
    }

    /** @return one step's provenance, metrics, objects and verification history; 404 when unknown */
    @GET
    @Path("/{experiment}/{run}/{step}")
    public TemplateInstance step(@PathParam("experiment") String experiment, @PathParam("run") String run,
                                 @PathParam("step") long step) {
        Viewer viewer = viewers.require();
        String id = AssetIds.checkpoint(experiment, run, step);
        CheckpointStepEvidence evidence = ledger.steps(viewer.authorization(), experiment, run).steps().stream()
                .filter(s -> s.step() == step).findFirst()
                .orElseThrow(() -> new NotFoundException("no stored step " + step + " of " + experiment + "/" + run));
        List<Views.Verification> history = Answers.verifications(
                ledger.payloads(viewer.authorization(), id, Topics.OBJECT_VERIFIED));
        AssetEvidence asset = evidence.asset();
        List<Views.Field> metrics = evidence.metrics() == null ? List.of() : new TreeMap<>(evidence.metrics()).entrySet()
                .stream().map(e -> new Views.Field(e.getKey(), String.valueOf(e.getValue()))).toList();
        return Templates.step(Pages.who(viewer), new Views.StepDetail(experiment, run, step, id, asset.keyCheckpoint(),
                evidence.pinned(), Answers.fields(asset.provenance()), metrics,
                asset.objects().stream().map(o -> Answers.copy(o, history)).toList(), history));
    }

    private static Views.Step step(CheckpointStepEvidence s, long latest) {
        Map<String, Long> perStore = s.asset().objects().stream()
                .collect(Collectors.groupingBy(ObjectEvidence::store, TreeMap::new, Collectors.counting()));
        String copies = perStore.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        String metrics = s.metrics() == null ? "" : new TreeMap<>(s.metrics()).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
        String tags = s.tags() == null ? "" : String.join(", ", s.tags());
        return new Views.Step(s.step(), s.fileCount(), s.totalBytes(), metrics, tags, s.pinned(), s.asset().keyCheckpoint(),
                s.step() == latest, verified(s.asset()), copies, Views.time(s.publishedAt()), s.expiredEventId() != null);
    }

    /** Every object of the step has an OK HEAD in every store it was uploaded to (as {@code latest.json} is written). */
    private static boolean verified(AssetEvidence asset) {
        return !asset.objects().isEmpty() && asset.objects().stream().allMatch(o -> o.headResult() == VerifyResult.OK);
    }
}
