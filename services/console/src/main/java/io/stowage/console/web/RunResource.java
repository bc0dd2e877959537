package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.client.ProviderApi;
import io.stowage.console.domain.RetentionForm;
import io.stowage.console.domain.Sizes;
import io.stowage.console.session.Viewer;
import io.stowage.console.session.Viewers;
import io.stowage.events.AssetIds;
import io.stowage.events.Topics;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code /runs}, {@code /runs/EXPERIMENT/RUN} and {@code /runs/EXPERIMENT/RUN/STEP}: stored checkpoint steps with
 * metrics, tags, pin, key, copies per store, which step is the newest verified one, and each step's provenance and
 * verification history; {@code /runs/EXPERIMENT/RUN/retention?keepLast=…} the run's retention plan under the rules
 * given (evaluated by the provider-adapter, nothing sent or deleted) and, for an operator, its apply after a
 * confirmation that names the steps it expires: the provider-adapter refuses the apply (409) when its decision would
 * expire any other step.
 */
@Path("/runs")
@Produces(MediaType.TEXT_HTML)
public class RunResource {
    private static final Logger LOG = Logger.getLogger(RunResource.class);

    private final Viewers viewers;
    private final LedgerApi ledger;
    private final ProviderApi provider;

    RunResource(Viewers viewers, @RestClient LedgerApi ledger, ProviderApi provider) {
        this.viewers = viewers;
        this.ledger = ledger;
        this.provider = provider;
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

    /**
     * @return the retention form and, when a rule is given, the plan evaluated now; 400 (a page naming the field) for a
     *         rule of the wrong form or one the provider-adapter refuses
     */
    @GET
    @Path("/{experiment}/{run}/retention")
    public TemplateInstance retention(@PathParam("experiment") String experiment, @PathParam("run") String run,
                                      @QueryParam("keepLast") String keepLast, @QueryParam("keepBest") String keepBest,
                                      @QueryParam("metric") String metric, @QueryParam("mode") String mode,
                                      @QueryParam("keepEvery") String keepEvery,
                                      @QueryParam("keepInterval") String keepInterval,
                                      @QueryParam("temporaryTtl") String temporaryTtl) {
        Viewer viewer = viewers.require();
        AssetIds.run(experiment, run);
        if (ledger.steps(viewer.authorization(), experiment, run).steps().isEmpty()) {
            throw new NotFoundException("no stored step of " + experiment + "/" + run);
        }
        RetentionForm form = new RetentionForm(keepLast, keepBest, metric, mode, keepEvery, keepInterval, temporaryTtl);
        if (form.empty()) {
            return Templates.retention(Pages.who(viewer), new Views.RetentionPage(experiment, run, form, false, "—", "—",
                    List.of(), "", 0, "", null));
        }
        JsonNode plan = Refusals.asked(() -> provider.retentionPlan(viewer.authorization(), body(experiment, run, form)));
        return Templates.retention(Pages.who(viewer), page(experiment, run, form, plan, null));
    }

    /**
     * Operator, after the plan's confirmation: applies the rules, confirming exactly the steps {@code expire} names
     * (comma-separated, as the plan showed them). Answers the outcome page; 400 without the confirmation, 403 for a
     * reader, 409 when the decision now would expire a step the confirmation does not name (nothing deleted).
     */
    @POST
    @Path("/{experiment}/{run}/retention/apply")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public TemplateInstance apply(@PathParam("experiment") String experiment, @PathParam("run") String run,
                                  @FormParam("keepLast") String keepLast, @FormParam("keepBest") String keepBest,
                                  @FormParam("metric") String metric, @FormParam("mode") String mode,
                                  @FormParam("keepEvery") String keepEvery, @FormParam("keepInterval") String keepInterval,
                                  @FormParam("temporaryTtl") String temporaryTtl, @FormParam("expire") String expire,
                                  @FormParam("confirm") String confirm) {
        Viewer viewer = viewers.requireOperator("a retention apply of " + experiment + "/" + run);
        AssetIds.run(experiment, run);
        if (!"expire".equals(confirm)) {
            throw new BadRequestException("a retention apply needs the confirmation of its plan");
        }
        RetentionForm form = new RetentionForm(keepLast, keepBest, metric, mode, keepEvery, keepInterval, temporaryTtl);
        if (form.empty()) {
            throw new BadRequestException("a retention apply needs at least one rule");
        }
        Map<String, Object> body = body(experiment, run, form);
        body.put("expectExpire", steps(expire));
        LOG.infof("%s applies retention to %s/%s (%s), confirming step(s) %s", viewer.name(), experiment, run,
                form.query(), body.get("expectExpire"));
        JsonNode answer = Refusals.asked(() -> provider.retentionApply(viewer.authorization(), body));
        List<Views.Field> expired = new ArrayList<>();
        for (JsonNode e : Answers.iterable(answer.path("expired"))) {
            expired.add(new Views.Field(e.path("step").asText(), e.path("objects").size() + " object(s), "
                    + Sizes.human(e.path("totalBytes").asLong()) + " · event " + e.path("eventId").asText()));
        }
        List<Views.Field> refused = new ArrayList<>();
        for (JsonNode r : Answers.iterable(answer.path("refused"))) {
            refused.add(new Views.Field(r.path("step").asText(), r.path("key").asText() + ": " + r.path("reason").asText()));
        }
        return Templates.retention(Pages.who(viewer), page(experiment, run, form, answer.path("plan"),
                new Views.RetentionOutcome(answer.path("decisionId").asText(), expired, refused)));
    }

    private static Map<String, Object> body(String experiment, String run, RetentionForm form) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("experiment", experiment);
        body.put("run", run);
        try {
            body.put("policy", form.policy());
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("retention policy: " + e.getMessage());
        }
        return body;
    }

    /** @return the step numbers of a confirmation ({@code "50,100"}); empty for none */
    static List<Long> steps(String expire) {
        List<Long> steps = new ArrayList<>();
        if (expire == null || expire.isBlank()) {
            return steps;
        }
        for (String part : expire.split(",")) {
            try {
                steps.add(Long.parseLong(part.strip()));
            } catch (NumberFormatException e) {
                throw new BadRequestException("not a step number in the confirmation: '" + part.strip() + "'");
            }
        }
        return steps;
    }

    private static Views.RetentionPage page(String experiment, String run, RetentionForm form, JsonNode plan,
                                            Views.RetentionOutcome outcome) {
        List<Views.PlanStep> steps = new ArrayList<>();
        List<String> expire = new ArrayList<>();
        for (JsonNode s : Answers.iterable(plan.path("steps"))) {
            String decision = s.path("decision").asText();
            if ("expire".equals(decision)) {
                expire.add(s.path("step").asText());
            }
            List<String> keptBy = new ArrayList<>();
            Answers.iterable(s.path("keptBy")).forEach(k -> keptBy.add(k.asText()));
            List<String> tags = new ArrayList<>();
            Answers.iterable(s.path("tags")).forEach(t -> tags.add(t.asText()));
            Map<String, String> metrics = new TreeMap<>();
            s.path("metrics").fields().forEachRemaining(m -> metrics.put(m.getKey(), m.getValue().asText()));
            steps.add(new Views.PlanStep(s.path("step").asLong(), decision, String.join(", ", keptBy),
                    s.path("verified").asBoolean(), metrics.entrySet().stream().map(m -> m.getKey() + "=" + m.getValue())
                    .collect(Collectors.joining(", ")), String.join(", ", tags), stores(s.path("stores"))));
        }
        String latest = plan.path("latestStep").isNumber() ? "step " + plan.path("latestStep").asText() : "—";
        return new Views.RetentionPage(experiment, run, form, true, latest, plan.path("evaluatedAt").asText("—"), steps,
                String.join(",", expire), expire.size(), stores(plan.path("freed")), outcome);
    }

    /** @return {@code {STORE:{"keys","bytes"}}} as {@code primary 3 objects, 12.0 MiB; replica …}, stores by name */
    private static String stores(JsonNode perStore) {
        Map<String, String> out = new TreeMap<>();
        perStore.fields().forEachRemaining(e -> out.put(e.getKey(), e.getKey() + " " + e.getValue().path("keys").size()
                + " objects, " + Sizes.human(e.getValue().path("bytes").asLong())));
        return out.isEmpty() ? "—" : String.join("; ", out.values());
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
