package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.retention.CapsuleRetention;
import io.stowage.cli.retention.LatestStep;
import io.stowage.cli.retention.RetentionPlan;
import io.stowage.cli.retention.RetentionPlanner;
import io.stowage.cli.retention.domain.KeepReason;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.EventCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code stowage retention plan}: every stored checkpoint step of a run with keep or expire, the rules that keep it,
 * its keys and bytes per store, and the bytes and monthly cost expiring would free, computed from the ledger.
 * {@code stowage retention apply}: the same policy, applied by the provider-adapter's retention executor (the one
 * component that deletes stored objects), which re-evaluates the run from the ledger, records the signed decision,
 * deletes each expired step from the primary and replica store and confirms it gone; then waits until the ledger has
 * recorded every expiry.
 */
@Command(name = "retention", mixinStandardHelpOptions = true, description = "Checkpoint retention.",
        subcommands = {RetentionCommand.Plan.class, RetentionCommand.Apply.class, RetentionCommand.Schedule.class,
                RetentionCommand.Unschedule.class, RetentionCommand.Schedules.class, RetentionCommand.Sweep.class})
public final class RetentionCommand {

    /** The run and the policy options shared by plan (and apply). */
    static class PolicyOptions {
        @Option(names = "--experiment", required = true, description = "Experiment name.")
        String experiment;
        @Option(names = "--run", required = true, description = "Run name.")
        String run;
        @Option(names = "--capsule", paramLabel = "PATH", description = "The run's experiment.json (or its directory):"
                + " its 'retention' object is the policy the options below override.")
        Path capsule;
        @Option(names = "--keep-last", paramLabel = "N", description = "Keep the N newest verified steps.")
        Integer keepLast;
        @Option(names = "--keep-best", paramLabel = "K", description = "Keep the K verified steps best by --metric.")
        Integer keepBest;
        @Option(names = "--metric", paramLabel = "NAME", description = "The metric keep-best ranks by (as published with --metric).")
        String metric;
        @Option(names = "--mode", paramLabel = "min|max", description = "min: lower is better (a loss); max: higher is better.")
        String mode;
        @Option(names = "--keep-every", paramLabel = "M", description = "Keep every step whose number is a multiple of M.")
        Integer keepEvery;
        @Option(names = "--keep-interval", paramLabel = "DURATION", description = "Keep one verified step per window of"
                + " this length: the highest-numbered verified step published in each window (windows aligned to"
                + " 1970-01-01T00:00Z, so 1d windows are UTC days), e.g. 6h, 1d or PT6H.")
        Duration keepInterval;
        @Option(names = "--temporary-ttl", paramLabel = "DURATION", description = "Steps tagged 'temporary' may expire"
                + " once older than this (e.g. 90m, 12h, 7d, or ISO-8601 such as P7D).")
        Duration temporaryTtl;
        @Option(names = "--no-tag-pins", description = "Do not count the tag 'best' and key checkpoints as pins.")
        boolean noTagPins;
        @Option(names = "--cold-after", paramLabel = "DURATION", description = "Kept steps older than this that no resume"
                + " is likely to read (not latest, newest verified, leased or unverified) belong in --cold-class: the plan"
                + " lists them (e.g. 30d or P30D). Nothing moves objects yet.")
        Duration coldAfter;
        @Option(names = "--cold-class", paramLabel = "CLASS", description = "The cheaper S3 storage class for --cold-after"
                + " (default STANDARD_IA: S3 Standard-IA, R2 Infrequent Access).")
        String coldClass;

        /** @return the capsule's policy overridden by every option given */
        RetentionPolicy policy() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            RetentionPolicy base = capsule == null ? RetentionPolicy.NONE : CapsuleRetention.read(existing(capsule));
            try {
                RetentionPolicy policy = base.with(new RetentionPolicy(keepLast, keepBest, metric, CapsuleRetention.mode(mode),
                        keepEvery, keepInterval, temporaryTtl, noTagPins ? Boolean.FALSE : null, coldAfter, coldClass));
                if (policy.coldStorageClass() != null && policy.coldAfter() == null) {
                    throw new CliException(CliException.USAGE, "retention policy: a cold storage class needs --cold-after"
                            + " (or the capsule's coldAfter)");
                }
                return policy;
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new CliException(CliException.USAGE, "retention policy: " + e.getMessage());
            }
        }
    }

    // a --capsule that names nothing is a typo, not "no policy": say so instead of planning without it
    private static Path existing(Path capsule) {
        if (!java.nio.file.Files.exists(capsule)) {
            throw new CliException(CliException.USAGE, "--capsule " + capsule + " does not exist");
        }
        if (java.nio.file.Files.isDirectory(capsule) && !java.nio.file.Files.isRegularFile(capsule.resolve("experiment.json"))) {
            throw new CliException(CliException.USAGE, "--capsule " + capsule + ": no experiment.json in that directory");
        }
        return capsule;
    }

    /**
     * @return the run's steps as the ledger holds them
     * @throws CliException (exit 1) when the ledger knows no step of the run: a misspelt name plans nothing and must
     *                      not record a decision
     */
    static io.stowage.events.ledger.RunCheckpoints knownRun(LedgerClient ledger, String experiment, String run) {
        io.stowage.events.ledger.RunCheckpoints steps = ledger.checkpoints(experiment, run);
        if (steps.steps().isEmpty()) {
            throw new CliException(CliException.FAILED, "the ledger knows no checkpoint step of " + experiment + "/" + run
                    + " (check --experiment and --run)");
        }
        return steps;
    }

    @Command(name = "plan", mixinStandardHelpOptions = true,
            description = {"Show, for every stored checkpoint step of a run, keep or expire and the rules that keep it,"
                    + " computed from the ledger; nothing is deleted.",
                    "Never expired: the step latest.json names, the newest verified step, pinned steps, unverified steps,"
                            + " the step an unverified newer step would replace, and (unless --no-tag-pins) steps tagged"
                            + " best and key checkpoints. A policy with no rule keeps everything."})
    static final class Plan implements Callable<Integer> {
        @Mixin
        PolicyOptions options;
        @Option(names = "--json", description = "Print the plan as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            RetentionPolicy policy = options.policy();
            int exit = printPlan(evaluate(policy, options.experiment, options.run), json);
            if (!json && !policy.hasRule()) {
                standingHint(options.experiment, options.run);
            }
            return exit;
        }
    }

    /**
     * Under a plan whose policy has no rule: names the run's standing policy, which the sweep applies, and the command
     * that plans with it. Prints nothing when the run has none or the provider-adapter cannot be asked.
     */
    private static void standingHint(String experiment, String run) {
        JsonNode standing;
        try {
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            standing = standingOf(new ProviderClient(session.serviceUrl("provider-adapter")), experiment, run);
        } catch (CliException | IllegalStateException e) {
            return;
        }
        if (standing != null) {
            boolean capsule = "capsule".equals(standing.path("source").asText());
            System.out.printf("this plan has no rule; the sweep applies the run's standing policy %s (%s %s): plan with"
                            + " it: stowage retention plan --experiment %s --run %s%s%n", setFields(standing.path("policy")),
                    capsule ? "stated by" : "scheduled by", standing.path("scheduledBy").asText(), experiment, run,
                    commandOptions(standing.path("policy")));
        }
    }

    private static int printPlan(RetentionPlan plan, boolean json) {
        if (json) {
            JsonOut.print(plan);
        } else {
            print(plan);
        }
        return 0;
    }

    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = {"Apply the policy: the provider-adapter re-evaluates the run from the ledger, records the signed"
                    + " decision (retention.decided), deletes every expired step's objects from the primary and the replica"
                    + " store, confirms each gone (HEAD: not found) and records checkpoint.expired; refusals are recorded"
                    + " as retention.refused. Needs an operator token.",
                    "Exit 0 when every expired step was deleted, 1 when anything was refused or the ledger did not record"
                            + " the expiries in time. --dry-run prints the plan and deletes nothing."})
    static final class Apply implements Callable<Integer> {
        static final Duration LEDGER_WAIT = Duration.ofSeconds(60);
        @Mixin
        PolicyOptions options;
        @Option(names = "--dry-run", description = "Print the plan (as retention plan does); delete nothing.")
        boolean dryRun;
        @Option(names = "--json", description = "Print the outcome (or with --dry-run the plan) as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            RetentionPolicy policy = options.policy();
            if (dryRun) {
                return printPlan(evaluate(policy, options.experiment, options.run), json);
            }
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            knownRun(new LedgerClient(session.serviceUrl("ledger")), options.experiment, options.run);
            JsonNode answer;
            try {
                answer = new ProviderClient(session.serviceUrl("provider-adapter"))
                        .applyRetention(options.experiment, options.run, RetentionPlanner.describe(policy));
            } catch (CliException e) {
                if (!(e.getCause() instanceof java.io.IOException)) {
                    throw e;
                }
                // the connection broke: the provider-adapter may have journaled the decision and begun deleting
                throw new CliException(CliException.FAILED, "the provider-adapter did not answer retention apply ("
                        + e.getMessage() + "); if it had begun deleting, it finishes the journaled decision when it runs"
                        + " again; see what is left with `stowage retention plan --experiment " + options.experiment
                        + " --run " + options.run + "`, and apply again (nothing is deleted twice)", e);
            }
            List<Long> expired = new ArrayList<>();
            answer.path("expired").forEach(e -> expired.add(e.path("step").asLong()));
            boolean recorded = awaitLedger(new LedgerClient(session.serviceUrl("ledger")), options.experiment,
                    options.run, expired);
            if (json) {
                com.fasterxml.jackson.databind.node.ObjectNode out = answer.deepCopy();
                out.put("ledgerRecorded", recorded);
                JsonOut.print(out);
            } else {
                printApplied(answer, recorded, session);
            }
            return answer.path("refused").isEmpty() && recorded ? 0 : 1;
        }
    }

    @Command(name = "schedule", mixinStandardHelpOptions = true,
            description = {"Give a run a standing policy: the provider-adapter's periodic sweep applies it as retention apply"
                    + " would (every stowage.provider-adapter.retention-sweep-interval, 1h by default). A pass that would"
                    + " expire more than --max-fraction of the run's stored steps deletes nothing and raises a"
                    + " provider.alert (retention-held) until an operator runs retention apply. Needs an operator token.",
                    "Prints what the next pass would do. --dry-run records nothing. A policy with no rule is refused."})
    static final class Schedule implements Callable<Integer> {
        @Mixin
        PolicyOptions options;
        @Option(names = "--max-fraction", paramLabel = "F", description = "The most of the run's stored steps one pass may"
                + " expire, more than 0 and at most 1 (default 0.5).")
        Double maxFraction;
        @Option(names = "--dry-run", description = "Print the plan and what a pass would do; record nothing.")
        boolean dryRun;
        @Option(names = "--json", description = "Print the answer as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (maxFraction != null && !(maxFraction > 0 && maxFraction <= 1)) {
                throw new CliException(CliException.USAGE, "--max-fraction must be more than 0 and at most 1, not " + maxFraction);
            }
            RetentionPolicy policy = options.policy();
            if (!policy.hasRule()) {
                throw new CliException(CliException.USAGE, "retention schedule: the policy has no rule (--keep-last,"
                        + " --keep-best, --keep-every, --keep-interval, --temporary-ttl or the capsule's retention)");
            }
            if (dryRun) {
                RetentionPlan plan = evaluate(policy, options.experiment, options.run);
                double fraction = maxFraction == null ? 0.5 : maxFraction;
                int cap = (int) Math.floor(fraction * plan.steps().size() + 1e-9);
                if (json) {
                    com.fasterxml.jackson.databind.node.ObjectNode out = EventCodec.mapper().valueToTree(plan);
                    out.put("cap", cap);
                    out.put("nextResult", next(plan.expired().size(), cap));
                    JsonOut.print(out);
                } else {
                    print(plan);
                    System.out.printf("a sweep pass would %s (cap %d of %d stored steps); nothing recorded (--dry-run)%n",
                            next(plan.expired().size(), cap), cap, plan.steps().size());
                }
                return 0;
            }
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            knownRun(new LedgerClient(session.serviceUrl("ledger")), options.experiment, options.run);
            JsonNode answer = new ProviderClient(session.serviceUrl("provider-adapter")).scheduleRetention(
                    options.experiment, options.run, RetentionPlanner.describe(policy), maxFraction);
            if (json) {
                JsonOut.print(answer);
                return 0;
            }
            JsonNode next = answer.path("next");
            System.out.printf("retention schedule of %s/%s recorded: policy %s, max fraction %s; swept every %s%n",
                    options.experiment, options.run, setFields(answer.path("schedule").path("policy")),
                    answer.path("schedule").path("maxFraction").asText(), answer.path("sweepInterval").asText());
            String result = next.path("result").asText();
            if (result.equals("nothing")) {
                System.out.printf("the next pass would expire nothing: every one of the %d stored step(s) is kept%n",
                        next.path("storedSteps").asInt());
            } else {
                System.out.printf("the next pass would %s: expire %s of %d stored step(s), cap %d%n", result,
                        next.path("wouldExpire"), next.path("storedSteps").asInt(), next.path("cap").asInt());
            }
            return 0;
        }

        private static String next(int expire, int cap) {
            return expire == 0 ? "expire nothing" : expire > cap ? "hold (expire nothing, alert): " + expire
                    + " step(s) to expire is over the cap" : "expire " + expire + " step(s)";
        }
    }

    @Command(name = "unschedule", mixinStandardHelpOptions = true,
            description = "Remove an operator's schedule of a run. The sweep then leaves the run alone, unless its capsule"
                    + " stated a policy at its newest publish: that policy applies again (the command says so). Needs an"
                    + " operator token. Exit 1 when the run has no operator's schedule.")
    static final class Unschedule implements Callable<Integer> {
        @Option(names = "--experiment", required = true, description = "Experiment name.")
        String experiment;
        @Option(names = "--run", required = true, description = "Run name.")
        String run;
        @Option(names = "--json", description = "Print the removed schedule as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            ProviderClient provider = new ProviderClient(session.serviceUrl("provider-adapter"));
            JsonNode standing = null;
            for (JsonNode s : provider.retentionSchedules().path("schedules")) {
                if (experiment.equals(s.path("experiment").asText()) && run.equals(s.path("run").asText())) {
                    standing = s;
                }
            }
            if (standing == null) {
                throw new CliException(CliException.FAILED, "no retention schedule for " + experiment + "/" + run
                        + " (see stowage retention schedules)");
            }
            if ("capsule".equals(standing.path("source").asText())) {
                throw new CliException(CliException.FAILED, experiment + "/" + run + " has no operator's schedule: the sweep"
                        + " applies the policy its capsule stated at " + standing.path("scheduledBy").asText().replace("the capsule at ", "")
                        + "; remove 'retention' from its experiment.json (the next publish takes it off) or override it"
                        + " with stowage retention schedule");
            }
            JsonNode answer = provider.unscheduleRetention(experiment, run);
            if (json) {
                JsonOut.print(answer);
            } else {
                System.out.printf("retention schedule of %s/%s removed: the sweep no longer applies %s%n", experiment, run,
                        setFields(answer.path("removed").path("policy")));
                JsonNode capsule = standingOf(provider, experiment, run);
                if (capsule != null) {
                    System.out.printf("the sweep applies the policy %s again, which the run's capsule stated at %s (max"
                                    + " fraction %s); see what it would expire: stowage retention plan --experiment %s"
                                    + " --run %s%s%n", setFields(capsule.path("policy")),
                            capsule.path("scheduledBy").asText().replace("the capsule at ", ""),
                            capsule.path("maxFraction").asText(), experiment, run, commandOptions(capsule.path("policy")));
                }
            }
            return 0;
        }
    }

    @Command(name = "schedules", mixinStandardHelpOptions = true,
            description = "List the runs with a standing policy (an operator's schedule, or else the policy the run's"
                    + " capsule stated at its newest publish), their cap and who set it. Exit 1 when a schedule file or a"
                    + " capsule's policy cannot be read (it is never applied).")
    static final class Schedules implements Callable<Integer> {
        @Option(names = "--json", description = "Print the list as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            JsonNode answer = new ProviderClient(session.serviceUrl("provider-adapter")).retentionSchedules();
            if (json) {
                JsonOut.print(answer);
            } else {
                System.out.printf("swept every %s; %d run(s) with a standing policy%n", answer.path("sweepInterval").asText(),
                        answer.path("schedules").size());
                for (JsonNode s : answer.path("schedules")) {
                    boolean capsule = "capsule".equals(s.path("source").asText());
                    System.out.printf("%s/%s: policy %s, max fraction %s, %s %s at %s%n", s.path("experiment").asText(),
                            s.path("run").asText(), setFields(s.path("policy")), s.path("maxFraction").asText(),
                            capsule ? "stated by" : "set by", s.path("scheduledBy").asText(), s.path("scheduledAt").asText());
                }
                answer.path("unreadable").forEach(u -> System.out.println("unreadable (never applied): " + u.asText()));
            }
            return answer.path("unreadable").isEmpty() ? 0 : 1;
        }
    }

    @Command(name = "sweep", mixinStandardHelpOptions = true,
            description = {"Run one sweep pass now over every run with a standing policy (operator token), as the timer does.",
                    "Exit 0 when every run expired nothing, was applied without refusal, or was held over its cap;"
                            + " 1 when a run was skipped (its evaluation failed) or a step was refused."})
    static final class Sweep implements Callable<Integer> {
        @Option(names = "--json", description = "Print the pass as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            JsonNode answer = new ProviderClient(session.serviceUrl("provider-adapter")).sweepRetention();
            boolean clean = true;
            for (JsonNode r : answer.path("runs")) {
                clean &= !"skipped".equals(r.path("result").asText()) && r.path("refused").isEmpty();
            }
            if (json) {
                JsonOut.print(answer);
            } else {
                if (answer.path("runs").isEmpty()) {
                    System.out.println("no run has a retention schedule: nothing swept");
                }
                for (JsonNode r : answer.path("runs")) {
                    System.out.printf("%s/%s: %s; %d stored, cap %d, to expire %s, expired %s%s%n",
                            r.path("experiment").asText(), r.path("run").asText(), r.path("result").asText(),
                            r.path("storedSteps").asInt(), r.path("cap").asInt(), r.path("wouldExpire"), r.path("expired"),
                            r.path("detail").asText().isEmpty() ? "" : "; " + r.path("detail").asText());
                    r.path("refused").forEach(f -> System.out.println("  refused " + f.asText()));
                }
            }
            return clean ? 0 : 1;
        }
    }

    /** @return the run's standing policy as {@code GET /api/retention/schedules} lists it, null when it has none */
    static JsonNode standingOf(ProviderClient provider, String experiment, String run) {
        for (JsonNode s : provider.retentionSchedules().path("schedules")) {
            if (experiment.equals(s.path("experiment").asText()) && run.equals(s.path("run").asText())) {
                return s;
            }
        }
        return null;
    }

    /** @return a listed policy as the plan's options, each preceded by a space, e.g. {@code " --keep-last 2 --no-tag-pins"} */
    static String commandOptions(JsonNode policy) {
        return io.stowage.cli.retention.domain.RetentionPolicies.options(
                EventCodec.mapper().convertValue(policy, io.stowage.events.RetentionDecided.Policy.class));
    }

    /** @return a policy's set fields as {@code retention plan} prints a policy, e.g. {@code {keepLast=2, tagsPin=false}} */
    static String setFields(JsonNode policy) {
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        policy.fields().forEachRemaining(f -> {
            if (!f.getValue().isNull()) {
                out.put(f.getKey(), f.getValue().isNumber() ? f.getValue().numberValue() : f.getValue().isBoolean()
                        ? f.getValue().booleanValue() : f.getValue().asText());
            }
        });
        return out.toString();
    }

    /** @return true once the ledger records every step in {@code steps} as expired, false after {@link Apply#LEDGER_WAIT} */
    static boolean awaitLedger(LedgerClient ledger, String experiment, String run, List<Long> steps) {
        Instant deadline = Instant.now().plus(Apply.LEDGER_WAIT);
        while (true) {
            Set<Long> done = new HashSet<>();
            ledger.checkpoints(experiment, run).steps().stream().filter(s -> s.expiredEventId() != null)
                    .forEach(s -> done.add(s.step()));
            if (done.containsAll(steps)) {
                return true;
            }
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    static void printApplied(JsonNode answer, boolean recorded, Session session) {
        RetentionPlan decided = EventCodec.mapper().convertValue(answer.path("plan"), RetentionPlan.class);
        // the executor's plan carries no price: priced here as retention plan prices it
        RetentionPlan plan = decided.monthlyUsdFreed() != null ? decided
                : decided.withMonthlyUsdFreed(monthlyFreed(session, decided, recorded));
        print(plan);
        System.out.printf("decision %s (plan sha256 %s), signed and recorded as retention.decided%n",
                answer.path("decisionId").asText(), answer.path("planSha256").asText());
        for (JsonNode e : answer.path("expired")) {
            System.out.printf("expired step %d: %d objects, %d bytes deleted and confirmed gone (HEAD: not found); "
                    + "checkpoint.expired %s%n", e.path("step").asLong(), e.path("objects").size(),
                    e.path("totalBytes").asLong(), e.path("eventId").asText());
        }
        for (JsonNode r : answer.path("refused")) {
            System.out.printf("refused %s: %s%n", r.path("step").isNull() ? "the decision" : "step " + r.path("step").asLong(),
                    r.path("reason").asText());
        }
        if (!recorded) {
            System.out.println("the ledger did not record every expiry within " + Apply.LEDGER_WAIT.toSeconds() + " s");
        }
    }

    /**
     * Evaluates the plan now: the run's steps from the ledger's HTTP API, latest.json from the primary store, the cost
     * from the provider-adapter's price table.
     */
    static RetentionPlan evaluate(RetentionPolicy policy, String experiment, String run) {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        Long latest;
        try (PrimaryStore primary = new PrimaryStore(session.stack())) {
            latest = LatestStep.read(primary, experiment, run);
        }
        LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
        RetentionPlan plan = RetentionPlanner.plan(knownRun(ledger, experiment, run), policy, latest, Instant.now());
        return plan.withMonthlyUsdFreed(monthlyFreed(session, plan, false));
    }

    // the primary store's price with the free tier: cost(archive) - cost(archive - freed), as stowage cost prices it;
    // deleted = the ledger already counts the freed bytes out of the archive (after an apply)
    private static BigDecimal monthlyFreed(Session session, RetentionPlan plan, boolean deleted) {
        RetentionPlan.StoreObjects primary = plan.freed().get("primary");
        long freed = primary == null ? 0 : primary.bytes();
        try {
            long archived = CostCommand.archivedBytes(session.serviceUrl("ledger"));
            long before = deleted ? archived + freed : archived;
            ProviderClient provider = new ProviderClient(session.serviceUrl("provider-adapter"));
            JsonNode now = provider.cost(null, before).path("archive");
            JsonNode after = provider.cost(null, Math.max(0, before - freed)).path("archive");
            return new BigDecimal(now.path("storeMonthlyUsd").asText("0"))
                    .subtract(new BigDecimal(after.path("storeMonthlyUsd").asText("0")));
        } catch (CliException | IllegalStateException | java.util.NoSuchElementException e) {
            return null;
        }
    }

    // "promoted" names the revisions: "promoted to model/M/R"
    private static List<String> keptBy(RetentionPlan.Step s) {
        return s.keptBy().stream().map(r -> KeepReason.PROMOTED.label().equals(r) && !s.promotedTo().isEmpty()
                ? "promoted to " + String.join(" and ", s.promotedTo()) : r).toList();
    }

    static void print(RetentionPlan plan) {
        System.out.printf("retention plan for %s/%s at %s; policy %s; latest.json names %s%n", plan.experiment(),
                plan.run(), plan.evaluatedAt(), plan.policy(), plan.latestStep() == null ? "no step" : plan.latestStep());
        System.out.printf("%-12s %-7s %-9s %8s %14s  %s%n", "STEP", "ACTION", "VERIFIED", "OBJECTS", "BYTES", "KEPT BY");
        for (RetentionPlan.Step s : plan.steps()) {
            long objects = s.stores().values().stream().mapToLong(o -> o.keys().size()).sum();
            long bytes = s.stores().values().stream().mapToLong(RetentionPlan.StoreObjects::bytes).sum();
            System.out.printf("%-12d %-7s %-9s %8d %14d  %s%s%n", s.step(), s.decision(), s.verified() ? "yes" : "no",
                    objects, bytes, String.join(", ", keptBy(s)), s.coldClass() == null ? "" : "; belongs in " + s.coldClass());
        }
        List<RetentionPlan.Step> cold = plan.cold();
        if (!cold.isEmpty()) {
            System.out.printf("%d kept step(s) older than %s belong in %s (%d bytes in all stores): listed only, nothing"
                            + " moves objects between storage classes yet (docs/retention.md \"Storage classes\")%n",
                    cold.size(), plan.policy().get("coldAfter"), cold.get(0).coldClass(), cold.stream()
                            .flatMap(s -> s.stores().values().stream()).mapToLong(RetentionPlan.StoreObjects::bytes).sum());
        }
        plan.freed().forEach((store, o) -> System.out.printf("frees in %s: %d objects, %d bytes%n", store, o.keys().size(), o.bytes()));
        System.out.printf("%d of %d steps expire; monthly cost freed (primary store): %s%n", plan.expired().size(),
                plan.steps().size(), plan.monthlyUsdFreed() == null ? "unknown (the provider-adapter did not answer)"
                        : "$" + plan.monthlyUsdFreed().toPlainString());
    }
}
