package io.stowage.provideradapter.api;

import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.stowage.auth.Roles;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.RetentionDecided;
import io.stowage.events.StowageEvent;
import io.stowage.messaging.EventPublisher;
import io.stowage.provideradapter.domain.retention.RetentionDecider;
import io.stowage.provideradapter.domain.retention.RetentionExecutor;
import io.stowage.cli.retention.domain.RetentionPolicies;
import io.stowage.provideradapter.domain.retention.RetentionSchedule;
import io.stowage.provideradapter.domain.retention.RetentionSweep;
import io.stowage.provideradapter.retention.RetentionBeans.Retention;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Retention's HTTP API. {@code POST /api/retention/plan} (reader token) with {@code {"experiment","run","policy":
 * {keepLast, keepBest, metric, mode, keepEvery, keepInterval, temporaryTtl, tagsPin}}}: the plan evaluated now, nothing
 * sent or deleted. {@code POST /api/retention/apply} (operator token) with the same body and an optional
 * {@code "expectExpire":[step…]}: evaluates the run from the ledger now and, when {@code expectExpire} is given and the
 * decision would expire a step outside it (the plan an operator confirmed changed since), refuses with 409 before the
 * decision is sent or anything deleted; otherwise sends the signed {@code retention.decided}, then has the executor re-evaluate and execute
 * exactly those bytes, and sends each {@code checkpoint.expired} and any {@code retention.refused}. {@code POST /api/retention/execute} with a
 * {@code retention.decided} value as body and its {@code stowage-signature} header: executes a decision made elsewhere
 * (refused unless signed under the gate's key); the decision itself is not re-sent (the service would sign it).
 * Standing policies for the periodic sweep: {@code GET /api/retention/schedules} (reader), {@code POST
 * /api/retention/schedules} (operator) with {@code {"experiment","run","policy","maxFraction"}}, {@code POST
 * /api/retention/schedules/remove} (operator) with {@code {"experiment","run"}}, and {@code POST /api/retention/sweep}
 * (operator): one pass now ({@link RetentionSweep}).
 */
@Path("/api/retention")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Roles.OPERATOR)
public class RetentionResource {
    private static final Logger LOG = Logger.getLogger(RetentionResource.class);

    private final Retention retention;
    private final EventPublisher sender;
    private final SecurityIdentity identity;

    private final java.time.Duration sweepInterval;

    RetentionResource(Retention retention, EventPublisher sender, SecurityIdentity identity,
                      io.stowage.provideradapter.ProviderAdapterConfig config) {
        this.retention = retention;
        this.sender = sender;
        this.identity = identity;
        this.sweepInterval = config.retentionSweepInterval();
    }

    // strict: a policy field this service does not know (a newer CLI's rule) must refuse the apply or the schedule, not
    // be dropped, since dropping a keep rule expires more than the plan the operator read
    private static final ObjectMapper STRICT = EventCodec.mapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The body of a schedule: the run, its standing policy and the per-pass cap (null: {@link RetentionSchedule#DEFAULT_MAX_FRACTION}). */
    public record ScheduleBody(String experiment, String run, RetentionDecided.Policy policy, Double maxFraction) {
    }

    /**
     * @return 200 with {@code {"sweepInterval":"PT1H","schedules":[{experiment, run, policy, maxFraction, scheduledBy,
     *         scheduledAt, source}],"unreadable":[line]}}: the standing policies a pass takes now (operators' schedules,
     *         {@code source "operator"}, and capsules' policies of runs without one, {@code source "capsule"}); an
     *         unreadable line per schedule file that cannot be read and per capsule policy that cannot be taken; 503
     *         when retention or its schedules are off
     */
    @GET
    @Path("/schedules")
    @RolesAllowed(Roles.READER)
    public Response schedules() {
        Response off = schedulesOff();
        if (off != null) {
            return off;
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("sweepInterval", sweepInterval.toString());
        RetentionSweep.Standing standing = retention.sweep().standing();
        answer.put("schedules", standing.schedules());
        List<String> unreadable = new java.util.ArrayList<>(retention.schedules().unreadable());
        standing.skipped().forEach(p -> unreadable.add((p.experiment().equals("*") ? "" : p.experiment() + "/" + p.run()
                + ": ") + p.detail()));
        answer.put("unreadable", unreadable);
        return Response.ok(answer).build();
    }

    /**
     * Sets (or replaces) a run's standing policy, after evaluating it now: the answer says what the next pass would do.
     *
     * @return 200 with {@code {"schedule":{…},"next":{result, storedSteps, cap, wouldExpire},"sweepInterval"}}
     *         ({@code next.result}: "nothing", "apply" or "hold", the evaluation now; nothing sent or deleted); 400 for a bad body, a policy
     *         without a keep rule or a cap outside (0, 1]; 404 when the ledger knows no step of the run; 503 when retention
     *         is off or the ledger cannot be read (nothing recorded)
     */
    @POST
    @Path("/schedules")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response schedule(byte[] raw) {
        Response off = schedulesOff();
        if (off != null) {
            return off;
        }
        ScheduleBody body;
        try {
            body = raw == null || raw.length == 0 ? null : STRICT.readValue(raw, ScheduleBody.class);
        } catch (UnrecognizedPropertyException e) {
            return Errors.of(400, "retention schedule: unknown field '" + e.getPropertyName() + "'; nothing recorded");
        } catch (IOException e) {
            return Errors.of(400, "not a retention schedule body: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        if (body == null || body.experiment() == null || body.run() == null || body.policy() == null) {
            return Errors.of(400, "experiment, run and policy are required");
        }
        RetentionDecided.Policy p = body.policy();
        io.stowage.cli.retention.domain.RetentionPolicy rules;
        try {
            rules = RetentionPolicies.of(p);
        } catch (IllegalArgumentException e) {
            return Errors.of(400, "retention: " + e.getMessage() + "; nothing recorded");
        }
        if (!rules.hasRule()) {
            return Errors.of(400, "the policy has no rule (keepLast, keepBest, keepEvery, keepInterval or temporaryTtl):"
                    + " it would keep everything; nothing recorded");
        }
        double fraction = body.maxFraction() == null ? RetentionSchedule.DEFAULT_MAX_FRACTION : body.maxFraction();
        if (!(fraction > 0 && fraction <= 1)) {
            return Errors.of(400, "maxFraction must be more than 0 and at most 1, not " + body.maxFraction());
        }
        io.stowage.cli.retention.RetentionPlan plan;
        try {
            plan = retention.decider().plan(body.experiment(), body.run(), rules);
        } catch (IllegalArgumentException | InvalidEventException e) {
            return Errors.of(400, "retention: " + e.getMessage());
        } catch (IOException e) {
            return Errors.of(503, "cannot evaluate retention: " + e.getMessage() + "; nothing recorded");
        }
        if (plan.steps().isEmpty()) {
            return Errors.of(404, "the ledger knows no stored checkpoint step of " + body.experiment() + "/" + body.run()
                    + "; nothing recorded");
        }
        RetentionSchedule schedule = new RetentionSchedule(body.experiment(), body.run(), p, fraction,
                identity.getPrincipal().getName(), java.time.Instant.now());
        try {
            retention.schedules().put(schedule);
        } catch (IOException e) {
            return Errors.of(503, "cannot record the schedule: " + e.getMessage());
        }
        LOG.infof("retention schedule of %s set by %s: %s, max fraction %s", schedule.runName(), schedule.scheduledBy(),
                p, fraction);
        List<Long> expire = plan.expired().stream().map(io.stowage.cli.retention.RetentionPlan.Step::step).sorted().toList();
        int cap = schedule.cap(plan.steps().size());
        Map<String, Object> next = new LinkedHashMap<>();
        next.put("result", expire.isEmpty() ? "nothing" : expire.size() > cap ? "hold" : "apply");
        next.put("storedSteps", plan.steps().size());
        next.put("cap", cap);
        next.put("wouldExpire", expire);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("schedule", schedule);
        answer.put("next", next);
        answer.put("sweepInterval", sweepInterval.toString());
        return Response.ok(answer).build();
    }

    /** The body naming a run whose schedule is removed. */
    public record RunBody(String experiment, String run) {
    }

    /** @return 200 with {@code {"removed":{schedule}}}; 404 when the run has none; 400 for a bad body */
    @POST
    @Path("/schedules/remove")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response unschedule(byte[] raw) {
        Response off = schedulesOff();
        if (off != null) {
            return off;
        }
        RunBody body;
        try {
            body = raw == null || raw.length == 0 ? null : STRICT.readValue(raw, RunBody.class);
        } catch (IOException e) {
            return Errors.of(400, "not a {experiment, run} body: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        if (body == null || body.experiment() == null || body.run() == null) {
            return Errors.of(400, "experiment and run are required");
        }
        try {
            return retention.schedules().remove(body.experiment(), body.run())
                    .map(removed -> {
                        LOG.infof("retention schedule of %s removed by %s", removed.runName(), identity.getPrincipal().getName());
                        return Response.ok(Map.of("removed", removed)).build();
                    })
                    .orElseGet(() -> Errors.of(404, "no retention schedule for " + body.experiment() + "/" + body.run()));
        } catch (IOException e) {
            return Errors.of(503, "cannot remove the schedule: " + e.getMessage());
        }
    }

    /** @return 200 with {@code {"runs":[RunPass]}}: one sweep pass, now; 503 when retention or its schedules are off */
    @POST
    @Path("/sweep")
    public Response sweep() {
        Response off = schedulesOff();
        if (off != null) {
            return off;
        }
        LOG.infof("retention sweep pass requested by %s", identity.getPrincipal().getName());
        return Response.ok(Map.of("runs", retention.sweep().pass())).build();
    }

    private Response schedulesOff() {
        if (retention.offBecause() != null) {
            return Errors.of(503, "retention is off: " + retention.offBecause());
        }
        if (retention.schedules() == null) {
            return Errors.of(503, "the retention schedules cannot be opened (see the provider-adapter's log)");
        }
        return null;
    }

    /**
     * The body of plan and apply: the run, the effective policy (capsule overridden by the command line) and, for
     * apply only, the steps the confirmed plan expires (null: no such check, as {@code stowage retention apply} sends).
     */
    public record ApplyBody(String experiment, String run, RetentionDecided.Policy policy, List<Long> expectExpire) {
        public ApplyBody(String experiment, String run, RetentionDecided.Policy policy) {
            this(experiment, run, policy, null);
        }
    }

    /**
     * @param raw the request body, JSON
     * @return the body, every field known
     * @throws IllegalArgumentException for a body that is not JSON of {@link ApplyBody}'s shape or that names a field
     *                                  (of the body or of its policy) this service does not know; the message names it
     */
    static ApplyBody parseApply(byte[] raw) {
        try {
            return STRICT.readValue(raw, ApplyBody.class);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException("unknown field '" + e.getPropertyName() + "' (known: "
                    + e.getKnownPropertyIds() + "); nothing deleted");
        } catch (IOException e) {
            throw new IllegalArgumentException("not a retention apply body: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    /**
     * @param raw the request body, JSON; may be empty
     * @return the body, naming a run
     * @throws IllegalArgumentException with the one-line answer for a missing, malformed or incomplete body
     */
    private static ApplyBody requiredBody(byte[] raw) {
        ApplyBody body;
        try {
            body = raw == null || raw.length == 0 ? null : parseApply(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("retention: " + e.getMessage(), e);
        }
        if (body == null || body.experiment() == null || body.run() == null) {
            throw new IllegalArgumentException("experiment and run are required");
        }
        return body;
    }

    /**
     * @return 200 with {@code {"decisionId","planSha256","latestStep","plan","expired":[{step,objects,totalBytes}],
     *         "refused":[{step,key,reason}]}}; 400 for a bad body or policy; 409 when {@code expectExpire} is given and
     *         the decision would expire a step it does not name (nothing sent or deleted); 503 when retention is off or
     *         the ledger or latest.json cannot be read (nothing deleted)
     */
    @POST
    @Path("/apply")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response apply(byte[] raw) {
        if (retention.offBecause() != null) {
            return Errors.of(503, "retention is off: " + retention.offBecause());
        }
        ApplyBody body;
        try {
            body = requiredBody(raw);
        } catch (IllegalArgumentException e) {
            return Errors.of(400, e.getMessage());
        }
        RetentionDecider.Signed signed;
        try {
            signed = retention.decider().decide(body.experiment(), body.run(), RetentionPolicies.of(body.policy()),
                    identity.getPrincipal().getName());
        } catch (IllegalArgumentException | InvalidEventException e) {
            return Errors.of(400, "retention: " + e.getMessage());
        } catch (IOException e) {
            return Errors.of(503, "cannot evaluate retention: " + e.getMessage() + "; nothing deleted");
        }
        List<Long> beyond = body.expectExpire() == null ? List.of() : unconfirmed(signed.plan(), body.expectExpire());
        if (!beyond.isEmpty()) {
            // the decision is neither sent nor executed: the plan an operator confirmed is not the one evaluated now
            LOG.infof("refused retention apply of %s/%s by %s: step(s) %s not in the confirmed plan %s",
                    body.experiment(), body.run(), identity.getPrincipal().getName(), beyond, body.expectExpire());
            return Errors.of(409, "the plan changed since it was confirmed: it would now expire step(s) " + beyond
                    + " as well; nothing deleted");
        }
        // recorded (acknowledged by the broker) before anything is deleted
        sender.send(signed.decided());
        LOG.infof("sent retention.decided event %s asset %s: %d step(s) to expire, requested by %s",
                signed.decided().meta().eventId(), signed.decided().assetId(), signed.decided().expire().size(),
                signed.decided().requestedBy());
        Map<String, Object> answer = run(signed.value(), signed.signature());
        answer.put("plan", signed.plan());
        return Response.ok(answer).build();
    }

    /**
     * @return 200 with the plan ({@link io.stowage.cli.retention.RetentionPlan}'s JSON: every stored step with keep or
     *         expire, the rules that keep it, its keys and bytes per store; {@code monthlyUsdFreed} null); 400 for a bad
     *         body or policy ({@code expectExpire} is refused here); 503 when the ledger or latest.json cannot be read
     */
    @POST
    @Path("/plan")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.READER)
    public Response plan(byte[] raw) {
        ApplyBody body;
        try {
            body = requiredBody(raw);
        } catch (IllegalArgumentException e) {
            return Errors.of(400, e.getMessage());
        }
        if (body.expectExpire() != null) {
            return Errors.of(400, "expectExpire belongs to apply, not to plan");
        }
        try {
            return Response.ok(retention.decider().plan(body.experiment(), body.run(), RetentionPolicies.of(body.policy())))
                    .build();
        } catch (IllegalArgumentException | InvalidEventException e) {
            return Errors.of(400, "retention: " + e.getMessage());
        } catch (IOException e) {
            return Errors.of(503, "cannot evaluate retention: " + e.getMessage());
        }
    }

    /**
     * @return the steps {@code plan} expires that {@code confirmed} does not name, ascending; empty when every expired
     *         step was confirmed (a plan that now expires fewer steps, e.g. one newly leased, is within the confirmation)
     */
    static List<Long> unconfirmed(io.stowage.cli.retention.RetentionPlan plan, List<Long> confirmed) {
        return plan.expired().stream().map(io.stowage.cli.retention.RetentionPlan.Step::step)
                .filter(step -> !confirmed.contains(step)).sorted().toList();
    }

    /** @return 200 with the same shape as apply (without plan); 400 when the body is not a retention.decided */
    @POST
    @Path("/execute")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response execute(byte[] value, @HeaderParam(CloudEventHeaders.SIGNATURE) String signature) {
        if (retention.offBecause() != null) {
            return Errors.of(503, "retention is off: " + retention.offBecause());
        }
        try {
            return Response.ok(run(value, signature)).build();
        } catch (InvalidEventException e) {
            return Errors.of(400, "not a retention.decided: " + e.getMessage());
        }
    }

    private Map<String, Object> run(byte[] value, String signature) {
        // executed and sent under one lock; a journaled outcome whose send fails is sent again by the journal's timer
        RetentionExecutor.Outcome outcome = retention.delivery().execute(value, signature);
        List<StowageEvent> events = new ArrayList<>(outcome.expired());
        outcome.refused().ifPresent(events::add);
        events.forEach(e -> LOG.infof("outcome %s event %s asset %s of retention.decided event %s", e.topic(),
                e.meta().eventId(), e.assetId(), outcome.decision().meta().eventId()));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("decisionId", outcome.decision().meta().eventId());
        answer.put("planSha256", outcome.decision().planSha256());
        answer.put("latestStep", outcome.decision().latestStep());
        answer.put("expired", outcome.expired().stream().map(RetentionResource::expired).toList());
        answer.put("refused", outcome.refused().map(r -> r.refusals()).orElse(List.of()));
        return answer;
    }

    private static Map<String, Object> expired(CheckpointExpired e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("step", e.step());
        out.put("eventId", e.meta().eventId());
        out.put("objects", e.objects());
        out.put("totalBytes", e.totalBytes());
        return out;
    }
}
