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
        subcommands = {RetentionCommand.Plan.class, RetentionCommand.Apply.class})
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

        /** @return the capsule's policy overridden by every option given */
        RetentionPolicy policy() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            RetentionPolicy base = capsule == null ? RetentionPolicy.NONE : CapsuleRetention.read(existing(capsule));
            try {
                return base.with(new RetentionPolicy(keepLast, keepBest, metric, CapsuleRetention.mode(mode), keepEvery,
                        keepInterval, temporaryTtl, noTagPins ? Boolean.FALSE : null));
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
            return printPlan(evaluate(options.policy(), options.experiment, options.run), json);
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
            System.out.printf("%-12d %-7s %-9s %8d %14d  %s%n", s.step(), s.decision(), s.verified() ? "yes" : "no",
                    objects, bytes, String.join(", ", keptBy(s)));
        }
        plan.freed().forEach((store, o) -> System.out.printf("frees in %s: %d objects, %d bytes%n", store, o.keys().size(), o.bytes()));
        System.out.printf("%d of %d steps expire; monthly cost freed (primary store): %s%n", plan.expired().size(),
                plan.steps().size(), plan.monthlyUsdFreed() == null ? "unknown (the provider-adapter did not answer)"
                        : "$" + plan.monthlyUsdFreed().toPlainString());
    }
}
