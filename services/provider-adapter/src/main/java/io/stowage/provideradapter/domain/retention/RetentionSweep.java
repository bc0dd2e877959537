package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.domain.RetentionPolicies;
import io.stowage.cli.retention.RetentionPlan;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ProviderAlert;
import io.stowage.events.StowageEvent;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The periodic sweep: applies each run's standing policy as {@code retention apply} applies an operator's, with one
 * limit an operator's apply does not have. A run's standing policy is its operator's schedule
 * ({@link RetentionSchedules}) or, when it has none, the policy its capsule stated at the run's newest publish (read
 * from the ledger at each pass, {@link RetentionSources#capsulePolicies()}, with the default cap); a run with neither
 * is never swept.
 *
 * <p>Per scheduled run and pass: the run is evaluated now from the ledger and latest.json ({@link RetentionDecider},
 * the same planner and never-expire guards as the CLI); when nothing expires, nothing is sent. When the decision would
 * expire more than {@link RetentionSchedule#cap} of the run's stored steps, the pass is <b>held</b>: no decision is
 * sent, nothing is deleted, and a {@code provider.alert} ({@code resourceKind "run"}, code {@code retention-held}, one
 * blocker line per step it would expire) is sent once for each distinct held set; only an operator's
 * {@code retention apply} (or a raised cap) moves such a run on. Held rather than trimmed: trimming would choose which
 * steps go by an order no rule names. Otherwise the signed {@code retention.decided} is sent (acknowledged) and the
 * executor re-evaluates and executes exactly it, as for an apply ({@code requestedBy "sweep (scheduled by NAME)"}).
 * A run whose evaluation fails is skipped for this pass with its reason; other runs go on. Passes do not overlap.
 */
public final class RetentionSweep {
    /** The {@code provider.alert} code of a held pass. */
    public static final String HELD = "retention-held";

    private final RetentionSchedules schedules;
    private final RetentionSources sources;
    private final RetentionDecider decider;
    private final RetentionDelivery delivery;
    private final Consumer<StowageEvent> send;
    private final Clock clock;
    private final Map<String, List<Long>> alerted = new HashMap<>();

    /**
     * @param sources where the capsules' policies are read (the ledger)
     * @param send    sends one event and returns once the broker acknowledged it; throws when it cannot
     */
    public RetentionSweep(RetentionSchedules schedules, RetentionSources sources, RetentionDecider decider,
                          RetentionDelivery delivery, Consumer<StowageEvent> send, Clock clock) {
        this.schedules = schedules;
        this.sources = sources;
        this.decider = decider;
        this.delivery = delivery;
        this.send = send;
        this.clock = clock;
    }

    /**
     * What one pass did for one run.
     *
     * @param result      {@code nothing} (no step to expire), {@code applied} (the decision was sent and executed),
     *                    {@code held} (over the cap: nothing sent or deleted) or {@code skipped} (the evaluation or
     *                    the send failed: nothing deleted)
     * @param storedSteps the run's stored steps at evaluation (the plan's steps)
     * @param cap         the most steps this pass could expire
     * @param wouldExpire the steps the decision expires (for {@code held}, the steps it would have)
     * @param expired     the steps the executor expired and confirmed gone
     * @param refused     one line per refusal of the executor
     * @param decisionId  the {@code retention.decided} event id, null unless applied
     * @param detail      one line: why held or skipped; empty otherwise
     */
    public record RunPass(String experiment, String run, String result, int storedSteps, int cap, List<Long> wouldExpire,
                          List<Long> expired, List<String> refused, String decisionId, String detail) {
    }

    /**
     * The standing policies a pass takes now.
     *
     * @param schedules every operator's readable schedule, then each capsule's policy of a run without one (a capsule
     *                  policy with no rule is left out: it keeps everything), by experiment then run
     * @param skipped   one {@code skipped} entry per capsule policy the rules refuse (that run is not swept), and one
     *                  with experiment and run {@code "*"} when the ledger cannot list the capsules' policies (only the
     *                  operators' schedules are then swept)
     */
    public record Standing(List<RetentionSchedule> schedules, List<RunPass> skipped) {
    }

    /** @return the standing policies now: the operators' schedules and the capsules' policies from the ledger */
    public Standing standing() {
        List<RetentionSchedule> out = new ArrayList<>(schedules.all());
        java.util.Set<String> byOperator = new java.util.HashSet<>();
        out.forEach(s -> byOperator.add(s.runName()));
        List<RunPass> skipped = new ArrayList<>();
        List<io.stowage.events.ledger.RunRetentionPolicy> capsules;
        try {
            capsules = sources.capsulePolicies();
        } catch (IOException | RuntimeException e) {
            capsules = List.of();
            skipped.add(new RunPass("*", "*", "skipped", 0, 0, List.of(), List.of(), List.of(), null,
                    "the capsules' retention policies cannot be read from the ledger (" + e.getMessage()
                            + "): only operators' schedules are swept; nothing else deleted"));
        }
        for (io.stowage.events.ledger.RunRetentionPolicy p : capsules) {
            RetentionSchedule schedule = RetentionSchedule.ofCapsule(p);
            if (byOperator.contains(schedule.runName())) {
                continue;
            }
            try {
                if (!RetentionPolicies.of(p.policy()).hasRule()) {
                    continue;
                }
            } catch (IllegalArgumentException e) {
                skipped.add(skipped(schedule, 0, 0, List.of(), "the capsule's retention policy at step " + p.step()
                        + " is refused (" + e.getMessage() + "); nothing deleted"));
                continue;
            }
            out.add(schedule);
        }
        out.sort(java.util.Comparator.comparing(RetentionSchedule::experiment).thenComparing(RetentionSchedule::run));
        return new Standing(List.copyOf(out), List.copyOf(skipped));
    }

    /**
     * @return one entry per standing policy ({@link #standing()}), by experiment then run, after the entries of the
     *         policies that could not be taken
     */
    public synchronized List<RunPass> pass() {
        Standing standing = standing();
        List<RunPass> out = new ArrayList<>(standing.skipped());
        for (RetentionSchedule schedule : standing.schedules()) {
            out.add(pass(schedule));
        }
        return out;
    }

    private RunPass pass(RetentionSchedule schedule) {
        String who = schedule.requestedBy();
        RetentionDecider.Signed signed;
        try {
            signed = decider.decide(schedule.experiment(), schedule.run(), RetentionPolicies.of(schedule.policy()), who);
        } catch (IOException | IllegalArgumentException | InvalidEventException e) {
            return skipped(schedule, 0, 0, List.of(), "cannot evaluate: " + e.getMessage() + "; nothing deleted");
        }
        RetentionPlan plan = signed.plan();
        int stored = plan.steps().size();
        int cap = schedule.cap(stored);
        List<Long> expire = plan.expired().stream().map(RetentionPlan.Step::step).sorted().toList();
        if (expire.isEmpty()) {
            alerted.remove(schedule.runName());
            return new RunPass(schedule.experiment(), schedule.run(), "nothing", stored, cap, expire, List.of(), List.of(),
                    null, "");
        }
        if (expire.size() > cap) {
            String detail = "the sweep would expire " + expire.size() + " of " + stored + " stored step(s) of "
                    + schedule.runName() + ", more than its cap of " + cap + " (max fraction " + schedule.maxFraction()
                    + "); nothing deleted: run `stowage retention apply --experiment " + schedule.experiment() + " --run "
                    + schedule.run() + options(schedule.policy()) + "` to expire them";
            if (!expire.equals(alerted.get(schedule.runName()))) {
                try {
                    send.accept(ProviderAlert.of(EventMeta.first(io.stowage.events.AssetIds.run(schedule.experiment(),
                                    schedule.run()), clock), "run", schedule.runName(), HELD, detail,
                            expire.stream().map(step -> "step " + step).toList(), null));
                    alerted.put(schedule.runName(), expire);
                } catch (RuntimeException e) {
                    // the alert is sent again at the next pass; nothing was deleted either way
                }
            }
            return new RunPass(schedule.experiment(), schedule.run(), "held", stored, cap, expire, List.of(), List.of(),
                    null, detail);
        }
        alerted.remove(schedule.runName());
        try {
            // recorded (acknowledged by the broker) before anything is deleted
            send.accept(signed.decided());
        } catch (RuntimeException e) {
            return skipped(schedule, stored, cap, expire, "the decision could not be recorded (" + e.getMessage()
                    + "); nothing deleted");
        }
        RetentionExecutor.Outcome outcome = delivery.execute(signed.value(), signed.signature());
        List<Long> expired = outcome.expired().stream().map(e -> e.step()).sorted().toList();
        List<String> refused = outcome.refused().map(r -> r.refusals().stream()
                .map(f -> (f.step() == null ? "the decision" : "step " + f.step()) + ": " + f.reason()).toList())
                .orElse(List.of());
        return new RunPass(schedule.experiment(), schedule.run(), "applied", stored, cap, expire, expired, refused,
                signed.decided().meta().eventId(), "");
    }

    /** @return the policy as {@code stowage retention apply} options ({@link RetentionPolicies#options}) */
    static String options(io.stowage.events.RetentionDecided.Policy p) {
        return RetentionPolicies.options(p);
    }

    private static RunPass skipped(RetentionSchedule schedule, int stored, int cap, List<Long> expire, String why) {
        return new RunPass(schedule.experiment(), schedule.run(), "skipped", stored, cap, expire, List.of(), List.of(),
                null, why);
    }
}
