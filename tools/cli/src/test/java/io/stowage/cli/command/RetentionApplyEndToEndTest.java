package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GateSignature;
import io.stowage.events.RetentionDecided;
import io.stowage.stack.StackCredentials;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention deletes, through the six packaged services as separate processes against the real Kafka, S3Proxy and
 * PostgreSQL, driven by the real {@code stowage checkpoint publish} and {@code retention apply}, and tries to make it
 * delete too much: keep-best 1 + keep-last 1 deletes exactly the other two steps from the primary and the replica
 * (HEAD: not found) while the kept ones stay whole and fetchable, and plan, ledger and {@code audit store} agree
 * afterwards; apply twice deletes nothing the second time; a step is not expired while its newer replacement is
 * unverified (the verifier stopped); a signed decision naming a kept step or a key outside its step, and a forged
 * one, are refused by the executor, recorded, and delete nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RetentionApplyEndToEndTest {
    private static final String SIGNING_KEY = "retention-e2e-test-signing-key-0123456789abcdef";
    private static Path work;
    private static Path runDir;
    private static Platform platform;
    private static String operatorToken;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-retention-apply-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false),
                StackCredentials.random(), SIGNING_KEY);
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        operatorToken = Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip();
        System.setProperty("stowage.token", operatorToken);
        runDir = Files.createDirectories(hot.resolve("ckpt/run1"));
        // key checkpoints (a replica copy each) that do not count as pins, so that both stores are deleted from
        Files.writeString(runDir.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\",\"configSha256\":\"" + "b".repeat(64)
                + "\",\"dataManifestSha256\":\"" + "c".repeat(64) + "\",\"retention\":{\"keepLast\":1,\"keepBest\":1,"
                + "\"metric\":\"val_loss\",\"mode\":\"min\",\"tagsPin\":false}}");
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.home");
        System.clearProperty("stowage.token");
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    @Order(1)
    void keepBestOneAndKeepLastOneDeleteTheOtherStepsFromBothStoresAndNothingElse() throws Exception {
        double[] losses = {0.9, 0.2, 0.5, 0.7};
        for (int i = 0; i < losses.length; i++) {
            publish(runDir, "run1", (i + 1) * 100, "weights-" + i, "--key", "--metric", "val_loss=" + losses[i]);
        }
        JsonNode before = plan("run1");
        List<String> expiring = keys(before, 100, 300);
        List<String> kept = keys(before, 200, 400);
        assertThat(expiring).hasSize(4).allMatch(k -> k.contains("/000000000100/") || k.contains("/000000000300/"));

        Result dry = cli("retention", "apply", "--experiment", "e2e", "--run", "run1", "--capsule", runDir.toString(),
                "--dry-run", "--json");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(EventCodec.mapper().readTree(dry.out()).path("freed").path("replica").path("keys")).hasSize(2);
        assertThat(present(expiring)).as("a dry run deletes nothing").hasSize(4);

        JsonNode applied = apply("run1");

        assertThat(applied.path("refused")).as(applied.toString()).isEmpty();
        assertThat(applied.path("ledgerRecorded").asBoolean()).isTrue();
        List<Long> expired = new ArrayList<>();
        applied.path("expired").forEach(e -> expired.add(e.path("step").asLong()));
        assertThat(expired).containsExactly(100L, 300L);
        assertThat(applied.path("expired").get(0).path("objects")).hasSize(2);
        assertThat(present(expiring)).as("HEAD answers not found in both stores").isEmpty();
        assertThat(present(kept)).containsExactlyInAnyOrderElementsOf(kept);
        for (long step : List.of(200L, 400L)) {
            Path to = work.resolve("fetched-" + step);
            Result fetched = cli("checkpoint", "fetch", "--experiment", "e2e", "--run", "run1", "--step", String.valueOf(step),
                    "--to", to.toString());
            assertThat(fetched.exit()).as(fetched.err()).isZero();
            assertThat(to.resolve("weights.bin")).hasSameTextualContentAs(runDir.resolve("step-" + step + "/weights.bin"));
        }
        Path expiredTo = work.resolve("fetched-100");
        Result gone = Awaitility.await("the ledger projected the expiry").atMost(Duration.ofSeconds(30))
                .until(() -> cli("checkpoint", "fetch", "--experiment", "e2e", "--run", "run1", "--step", "100",
                        "--to", expiredTo.toString()), r -> r.err().contains("expired"));
        assertThat(gone.exit()).isEqualTo(CliException.FAILED);
        assertThat(gone.err()).matches("stowage: step 100 of e2e/run1 was expired by retention at \\S+Z \\(checkpoint\\.expired"
                + " \\S+\\): its objects were deleted from the store\n");
        assertThat(expiredTo).as("a failed fetch leaves no directory behind").doesNotExist();
        Result pinGone = cli("checkpoint", "pin", "--experiment", "e2e", "--run", "run1", "--step", "100");
        assertThat(pinGone.exit()).as(pinGone.err()).isEqualTo(CliException.FAILED);
        assertThat(pinGone.err()).startsWith("stowage: step 100 of e2e/run1 was expired by retention at ")
                .endsWith(": a pin cannot bring it back; nothing pinned\n");
        assertThat(eventCount("checkpoint.pinned", "checkpoint/e2e/run1/000000000100")).as("a refused pin records nothing")
                .isZero();
        assertThat(decisions(plan("run1"))).as("expired steps leave the plan").containsExactly("200 keep", "400 keep");
        Result audit = cli("audit", "store", "--json");
        assertThat(audit.exit()).as(audit.out() + audit.err()).isZero();
        Result replay = cli("audit", "replay", "--json");
        assertThat(replay.exit()).as("the ledger rebuilt from the topics agrees after deletions: " + replay.out()).isZero();
        assertThat(EventCodec.mapper().readTree(replay.out()).path("identical").asBoolean()).isTrue();
        assertThat(eventCount("retention.decided")).isEqualTo(1);
        assertThat(eventCount("checkpoint.expired")).isEqualTo(2);
    }

    @Test
    @Order(2)
    void applyingTwiceDeletesNothingTheSecondTime() throws Exception {
        Result text = cli("retention", "apply", "--experiment", "e2e", "--run", "run1", "--capsule", runDir.toString());
        assertThat(text.exit()).as(text.out() + text.err()).isZero();
        assertThat(text.out()).as("the outcome is priced as the plan is").containsPattern("monthly cost freed \\(primary store\\): \\$[0-9]")
                .doesNotContain("did not answer");

        JsonNode again = apply("run1");

        assertThat(again.path("expired")).isEmpty();
        assertThat(again.path("refused")).isEmpty();
        assertThat(present(keys(plan("run1"), 200, 400))).hasSize(4);
        assertThat(eventCount("checkpoint.expired")).isEqualTo(2);
    }

    @Test
    @Order(3)
    void aStepIsNotExpiredWhileItsNewerReplacementIsUnverified() throws Exception {
        Path run2 = Files.createDirectories(runDir.resolveSibling("run2"));
        publish(run2, "run2", 100, "first");
        publish(run2, "run2", 200, "second");
        List<JsonNode> applied = new ArrayList<>();
        platform.restart("verifier", () -> {
            try {
                publish(run2, "run2", 300, "third", "--no-wait");
                Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300)).until(() ->
                        plan("run2", "--keep-last", "1").path("steps").size() == 3
                                && keys(plan("run2", "--keep-last", "1"), 300).size() == 1);
                applied.add(apply("run2", "--keep-last", "1"));
                applied.add(plan("run2", "--keep-last", "1"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        JsonNode outcome = applied.get(0);
        assertThat(outcome.path("refused")).as(outcome.toString()).isEmpty();
        assertThat(outcome.path("expired")).hasSize(1);
        assertThat(outcome.path("expired").get(0).path("step").asLong()).isEqualTo(100);
        assertThat(keptBy(applied.get(1), 200)).contains("newest-verified", "replacement-unverified");
        assertThat(keptBy(applied.get(1), 300)).contains("unverified");
        assertThat(present(keys(applied.get(1), 200))).as("the step the unverified one replaces stays").hasSize(1);
    }

    @Test
    @Order(4)
    void signedDecisionsNamingAKeptStepOrAKeyOutsideTheStepAndForgedOnesAreRefused() throws Exception {
        JsonNode plan = plan("run1");
        List<String> latestKeys = keys(plan, 400);
        long refusalsBefore = eventCount("retention.refused");

        JsonNode kept = execute(decision(400, objects(400, plan)), true);
        JsonNode outside = execute(decision(200, List.of(
                new ExpiredObject("primary", bucket("primary"), "checkpoints/e2e/run1/latest.json", 1),
                new ExpiredObject("primary", bucket("primary"), "datasets/speech/r1/manifest.json", 1))), true);
        JsonNode forged = execute(decision(200, objects(200, plan)), false);

        assertThat(reason(kept)).contains("step 400 is the step latest.json names");
        assertThat(reason(outside)).contains("is outside checkpoints/e2e/run1/000000000200/");
        assertThat(reason(forged)).contains("not authenticated");
        assertThat(kept.path("expired")).isEmpty();
        assertThat(outside.path("expired")).isEmpty();
        assertThat(forged.path("expired")).isEmpty();
        assertThat(present(latestKeys)).hasSize(2);
        assertThat(present(keys(plan, 200))).hasSize(2);
        try (PrimaryStore primary = new PrimaryStore(platform.session().stack())) {
            assertThat(primary.head("checkpoints/e2e/run1/latest.json")).isPresent();
        }
        assertThat(decisions(plan("run1"))).containsExactly("200 keep", "400 keep");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> eventCount("retention.refused") == refusalsBefore + 3);
    }

    private static byte[] decision(long step, List<ExpiredObject> objects) {
        return EventCodec.encode(RetentionDecided.of(EventMeta.first("run/e2e/run1", Clock.systemUTC()), "e2e", "run1",
                new RetentionDecided.Policy(1, 1, "val_loss", "min", null, null, null, false), 400L, Instant.now(),
                "d".repeat(64), List.of(new RetentionDecided.ExpiringStep(step, objects)), "forger"));
    }

    private static JsonNode execute(byte[] value, boolean signed) throws Exception {
        String signature = signed ? new GateSignature(SIGNING_KEY).sign(value) : "0".repeat(64);
        HttpRequest request = HttpRequest.newBuilder(platform.session().serviceUrl("provider-adapter")
                        .resolve("/api/retention/execute"))
                .header("Authorization", "Bearer " + operatorToken).header("Content-Type", "application/json")
                .header(CloudEventHeaders.SIGNATURE, signature)
                .POST(HttpRequest.BodyPublishers.ofByteArray(value)).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return EventCodec.mapper().readTree(response.body());
    }

    private static String reason(JsonNode answer) {
        assertThat(answer.path("refused")).as(answer.toString()).hasSize(1);
        return answer.path("refused").get(0).path("reason").asText();
    }

    private static List<ExpiredObject> objects(long step, JsonNode plan) {
        List<ExpiredObject> out = new ArrayList<>();
        for (JsonNode s : plan.path("steps")) {
            if (s.path("step").asLong() == step) {
                s.path("stores").fields().forEachRemaining(store -> store.getValue().path("keys").forEach(k ->
                        out.add(new ExpiredObject(store.getKey(), bucket(store.getKey()), k.asText(), 1))));
            }
        }
        return out;
    }

    private static String bucket(String store) {
        var stack = platform.session().stack();
        return "replica".equals(store) ? stack.replicaBucket() : stack.primaryBucket();
    }

    private static JsonNode apply(String run, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("retention", "apply", "--experiment", "e2e", "--run", run,
                "--capsule", runDir.toString(), "--json"));
        args.addAll(List.of(extra));
        Result result = cli(args.toArray(String[]::new));
        assertThat(result.exit()).as(result.out() + result.err()).isZero();
        return EventCodec.mapper().readTree(result.out());
    }

    @Test
    @Order(5)
    void aRunTheLedgerDoesNotKnowOrACapsuleThatIsNotThereIsRefusedAndRecordsNoDecision() throws Exception {
        long decisions = eventCount("retention.decided");

        Result unknown = cli("retention", "apply", "--experiment", "e2e", "--run", "nosuch", "--keep-last", "1");
        Result unknownPlan = cli("retention", "plan", "--experiment", "e2e", "--run", "nosuch", "--keep-last", "1");
        Result noCapsule = cli("retention", "apply", "--experiment", "e2e", "--run", "run1", "--capsule",
                work.resolve("nosuch.json").toString());

        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err().strip()).isEqualTo("stowage: the ledger knows no checkpoint step of e2e/nosuch (check"
                + " --experiment and --run)");
        assertThat(unknownPlan.exit()).isEqualTo(1);
        assertThat(noCapsule.exit()).isEqualTo(2);
        assertThat(noCapsule.err()).contains("nosuch.json does not exist");
        assertThat(eventCount("retention.decided")).as("nothing was decided").isEqualTo(decisions);
        assertThat(present(keys(plan("run1"), 200, 400))).hasSize(4);
    }

    @Test
    @Order(6)
    void aStepFetchedForAResumeIsLeasedAndKeptWhileTheLeaseRuns() throws Exception {
        Path run3 = Files.createDirectories(runDir.resolveSibling("run3"));
        for (long step : List.of(100L, 200L, 300L)) {
            publish(run3, "run3", step, "step " + step + " ");
        }
        Result zero = cli("checkpoint", "fetch", "--experiment", "e2e", "--run", "run3", "--step", "100", "--to",
                work.resolve("resume-zero").toString(), "--lease", "0");
        assertThat(zero.exit()).as(zero.err()).isEqualTo(CliException.USAGE);
        assertThat(work.resolve("resume-zero")).doesNotExist();

        Instant before = Instant.now();
        Path to = work.resolve("resume-100");
        Result fetched = cli("checkpoint", "fetch", "--experiment", "e2e", "--run", "run3", "--step", "100", "--to",
                to.toString(), "--lease", "2h", "--json");
        assertThat(fetched.exit()).as(fetched.err()).isZero();
        Instant until = Instant.parse(EventCodec.mapper().readTree(fetched.out()).path("leaseUntil").asText());
        assertThat(until).isBetween(before.plus(Duration.ofHours(2)).minusSeconds(5), Instant.now().plus(Duration.ofHours(2)));
        assertThat(to.resolve("weights.bin")).hasSameTextualContentAs(run3.resolve("step-100/weights.bin"));
        Result unleased = cli("checkpoint", "fetch", "--experiment", "e2e", "--run", "run3", "--step", "200", "--to",
                work.resolve("look-200").toString(), "--no-lease", "--json");
        assertThat(unleased.exit()).as(unleased.err()).isZero();
        assertThat(EventCodec.mapper().readTree(unleased.out()).path("leaseUntil").isNull()).isTrue();
        List<String> leasedKeys = keys(plan("run3", "--keep-last", "1"), 100);

        JsonNode planned = plan("run3", "--keep-last", "1");
        assertThat(decisions(planned)).containsExactly("100 keep", "200 expire", "300 keep");
        assertThat(keptBy(planned, 100)).containsExactly("leased");
        JsonNode applied = apply("run3", "--keep-last", "1");

        assertThat(applied.path("refused")).as(applied.toString()).isEmpty();
        List<Long> expired = new ArrayList<>();
        applied.path("expired").forEach(e -> expired.add(e.path("step").asLong()));
        assertThat(expired).containsExactly(200L);
        assertThat(present(leasedKeys)).as("the leased step's objects stay").containsExactlyElementsOf(leasedKeys);
        assertThat(decisions(plan("run3", "--keep-last", "1"))).containsExactly("100 keep", "300 keep");
        Result replay = cli("audit", "replay", "--json");
        assertThat(replay.exit()).as("the ledger rebuilt from the topics holds the lease too: " + replay.out()).isZero();
    }

    @Test
    @Order(7)
    void theSweepAppliesAStandingPolicyOnlyWithinItsCapAndOnlyToScheduledRuns() throws Exception {
        Path run4 = Files.createDirectories(runDir.resolveSibling("run4"));
        for (long step : List.of(100L, 200L, 300L, 400L)) {
            publish(run4, "run4", step, "sweep " + step + " ");
        }
        List<String> run3Before = keys(plan("run3"), 100, 300);
        List<String> early = keys(plan("run4"), 100, 200);
        List<String> late = keys(plan("run4"), 300, 400);
        assertThat(early).hasSize(2);

        Result dry = cli("retention", "schedule", "--experiment", "e2e", "--run", "run4", "--keep-last", "1", "--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("a sweep pass would hold").contains("nothing recorded");
        Result none = cli("retention", "schedules", "--json");
        assertThat(standing(none, "operator")).as("a dry run records nothing").isEmpty();
        // run1's capsule states a policy, carried by its publishes: a standing policy without an operator
        assertThat(standing(none, "capsule")).containsExactly("run1");
        Result noRule = cli("retention", "schedule", "--experiment", "e2e", "--run", "run4");
        assertThat(noRule.exit()).isEqualTo(CliException.USAGE);
        assertThat(noRule.err()).contains("no rule");
        Result unknownRun = cli("retention", "schedule", "--experiment", "e2e", "--run", "no-such-run", "--keep-last", "1");
        assertThat(unknownRun.exit()).isEqualTo(CliException.FAILED);

        // keep-last 1 expires 3 of 4 stored steps, over the cap of floor(0.5 × 4) = 2: held, nothing deleted
        Result held = cli("retention", "schedule", "--experiment", "e2e", "--run", "run4", "--keep-last", "1",
                "--max-fraction", "0.5", "--json");
        assertThat(held.exit()).as(held.err()).isZero();
        JsonNode next = EventCodec.mapper().readTree(held.out()).path("next");
        assertThat(next.path("result").asText()).isEqualTo("hold");
        assertThat(next.path("wouldExpire").toString()).isEqualTo("[100,200,300]");
        String reader = Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip();
        System.setProperty("stowage.token", reader);
        try {
            Result refused = cli("retention", "sweep");
            assertThat(refused.exit()).as("a reader cannot run a sweep").isNotZero();
        } finally {
            System.setProperty("stowage.token", operatorToken);
        }
        Result pass = cli("retention", "sweep", "--json");
        assertThat(pass.exit()).as(pass.err()).isZero();
        JsonNode runs = EventCodec.mapper().readTree(pass.out()).path("runs");
        assertThat(runs).as("only runs with a standing policy are swept").hasSize(2);
        assertThat(runs.get(0).path("run").asText()).isEqualTo("run1");
        assertThat(runs.get(0).path("result").asText()).as("its capsule's policy was applied in case 1").isEqualTo("nothing");
        assertThat(runs.get(1).path("run").asText()).isEqualTo("run4");
        assertThat(runs.get(1).path("result").asText()).isEqualTo("held");
        assertThat(present(early)).as("a held pass deletes nothing").containsExactlyElementsOf(early);
        assertThat(eventCount("retention.decided", "run/e2e/run4")).as("a held pass sends no decision").isZero();
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> eventCount("provider.alert", "run/e2e/run4") == 1);

        // keep-last 2 expires 2 of 4: within the cap, applied like an operator's apply
        Result scheduled = cli("retention", "schedule", "--experiment", "e2e", "--run", "run4", "--keep-last", "2",
                "--max-fraction", "0.5");
        assertThat(scheduled.exit()).as(scheduled.err()).isZero();
        assertThat(scheduled.out()).contains("the next pass would apply: expire [100,200] of 4 stored step(s), cap 2");
        Result applied = cli("retention", "sweep");
        assertThat(applied.exit()).as(applied.out() + applied.err()).isZero();
        assertThat(applied.out()).contains("e2e/run4: applied; 4 stored, cap 2, to expire [100,200], expired [100,200]");
        assertThat(present(early)).as("HEAD answers not found").isEmpty();
        assertThat(present(late)).containsExactlyElementsOf(late);
        assertThat(present(run3Before)).as("an unscheduled run is untouched").containsExactlyElementsOf(run3Before);
        // the ledger lists only the stored steps once it recorded the expiries
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> decisions(plan("run4")).stream()
                .map(d -> d.split(" ")[0]).toList().equals(List.of("300", "400")));
        Result again = cli("retention", "sweep", "--json");
        assertThat(EventCodec.mapper().readTree(again.out()).path("runs").findValuesAsText("result"))
                .containsExactly("nothing", "nothing");

        Result removed = cli("retention", "unschedule", "--experiment", "e2e", "--run", "run4");
        assertThat(removed.exit()).as(removed.err()).isZero();
        assertThat(cli("retention", "unschedule", "--experiment", "e2e", "--run", "run4").exit()).isEqualTo(CliException.FAILED);
        Result rest = cli("retention", "sweep", "--json");
        assertThat(EventCodec.mapper().readTree(rest.out()).path("runs").findValuesAsText("run")).containsExactly("run1");
    }

    @Test
    @Order(8)
    void aRunWhoseCapsuleStatesAPolicyIsSweptWithoutAnOperatorUntilTheCapsuleDropsIt() throws Exception {
        Path run5 = Files.createDirectories(runDir.resolveSibling("run5"));
        Files.writeString(run5.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\",\"retention\":{\"keepLast\":3,"
                + "\"tagsPin\":false}}");
        Result first = null;
        for (long step : List.of(100L, 200L, 300L, 400L)) {
            Path dir = Files.createDirectories(run5.resolve("step-" + step));
            Files.writeString(dir.resolve("weights.bin"), ("capsule " + step + " ").repeat(100));
            Result published = cli("checkpoint", "publish", dir.toString(), "--experiment", "e2e", "--run", "run5");
            assertThat(published.exit()).as(published.err()).isZero();
            first = first == null ? published : first;
        }
        assertThat(first.err()).contains("the capsule's retention policy {keepLast=3, tagsPin=false} goes with it");
        List<String> oldest = keys(plan("run5"), 100);
        List<String> rest = keys(plan("run5"), 200, 300, 400);
        assertThat(oldest).hasSize(1);

        Result listed = cli("retention", "schedules");
        assertThat(listed.exit()).as(listed.out() + listed.err()).isZero();
        assertThat(listed.out()).contains("e2e/run5: policy {keepLast=3, tagsPin=false}, max fraction 0.5,"
                + " stated by the capsule at step 400");
        Result unschedule = cli("retention", "unschedule", "--experiment", "e2e", "--run", "run5");
        assertThat(unschedule.exit()).isEqualTo(CliException.FAILED);
        assertThat(unschedule.err()).contains("has no operator's schedule").contains("step 400");
        Result hint = cli("retention", "plan", "--experiment", "e2e", "--run", "run5");
        assertThat(hint.out()).as("a plan without a rule names the policy the sweep applies").contains("this plan has no"
                + " rule; the sweep applies the run's standing policy {keepLast=3, tagsPin=false} (stated by the capsule at"
                + " step 400): plan with it: stowage retention plan --experiment e2e --run run5 --keep-last 3 --no-tag-pins");
        // an operator's schedule overrides the capsule's; removing it says that the capsule's applies again
        Result override = cli("retention", "schedule", "--experiment", "e2e", "--run", "run5", "--keep-last", "4");
        assertThat(override.out()).as(override.err()).contains("the next pass would expire nothing: every one of the 4"
                + " stored step(s) is kept");
        Result removed = cli("retention", "unschedule", "--experiment", "e2e", "--run", "run5");
        assertThat(removed.exit()).as(removed.err()).isZero();
        assertThat(removed.out()).contains("the sweep applies the policy {keepLast=3, tagsPin=false} again, which the"
                + " run's capsule stated at step 400");

        Result pass = cli("retention", "sweep", "--json");
        assertThat(pass.exit()).as(pass.out() + pass.err()).isZero();
        JsonNode run5Pass = null;
        for (JsonNode r : EventCodec.mapper().readTree(pass.out()).path("runs")) {
            run5Pass = r.path("run").asText().equals("run5") ? r : run5Pass;
        }
        assertThat(run5Pass).as(pass.out()).isNotNull();
        assertThat(run5Pass.path("result").asText()).isEqualTo("applied");
        assertThat(run5Pass.path("expired").toString()).isEqualTo("[100]");
        assertThat(present(oldest)).as("HEAD answers not found").isEmpty();
        assertThat(present(rest)).containsExactlyElementsOf(rest);
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> eventCount("retention.decided", "run/e2e/run5") == 1);

        // the capsule no longer states a policy: its next publish takes the run off the sweep
        Files.writeString(run5.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\"}");
        publish(run5, "run5", 500, "capsule 500 ");
        assertThat(standing(cli("retention", "schedules", "--json"), "capsule")).doesNotContain("run5");
        Result after = cli("retention", "sweep", "--json");
        assertThat(EventCodec.mapper().readTree(after.out()).path("runs").findValuesAsText("run")).doesNotContain("run5");
        assertThat(present(rest)).containsExactlyElementsOf(rest);

        // storage classes are planned, not applied: the old kept steps are listed, the latest and newest stay
        Result cold = cli("retention", "plan", "--experiment", "e2e", "--run", "run5", "--keep-last", "4",
                "--cold-after", "1s", "--json");
        assertThat(cold.exit()).as(cold.err()).isZero();
        List<String> coldSteps = new ArrayList<>();
        EventCodec.mapper().readTree(cold.out()).path("steps").forEach(s -> {
            if (s.path("coldClass").asText().equals("STANDARD_IA")) {
                coldSteps.add(s.path("step").asText());
                assertThat(s.path("keptBy").toString()).doesNotContain("latest").doesNotContain("newest-verified");
            }
        });
        // 400 too once 500 is verified (the publish does not wait for the full re-read)
        assertThat(coldSteps).as(cold.out()).contains("200", "300").doesNotContain("500");
        Result coldText = cli("retention", "plan", "--experiment", "e2e", "--run", "run5", "--keep-last", "4",
                "--cold-after", "1s");
        assertThat(coldText.out()).containsPattern("[23] kept step\\(s\\) older than PT1S belong in STANDARD_IA")
                .contains("nothing moves objects between storage classes yet");
        assertThat(cli("retention", "plan", "--experiment", "e2e", "--run", "run5", "--cold-class", "STANDARD_IA").exit())
                .isEqualTo(CliException.USAGE);
    }

    /** @return the runs `retention schedules --json` lists with that source, in its order */
    private static List<String> standing(Result schedules, String source) throws Exception {
        assertThat(schedules.exit()).as(schedules.err()).isZero();
        List<String> out = new ArrayList<>();
        for (JsonNode s : EventCodec.mapper().readTree(schedules.out()).path("schedules")) {
            if (source.equals(s.path("source").asText())) {
                out.add(s.path("run").asText());
            }
        }
        return out;
    }

    private static void publish(Path run, String runName, long step, String content, String... options) throws Exception {
        Path dir = Files.createDirectories(run.resolve("step-" + step));
        Files.writeString(dir.resolve("weights.bin"), content.repeat(100));
        List<String> args = new ArrayList<>(List.of("checkpoint", "publish", dir.toString(), "--experiment", "e2e",
                "--run", runName));
        args.addAll(List.of(options));
        Result published = cli(args.toArray(String[]::new));
        assertThat(published.exit()).as(published.err()).isZero();
    }

    private static JsonNode plan(String run, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("retention", "plan", "--experiment", "e2e", "--run", run,
                "--capsule", runDir.toString(), "--json"));
        args.addAll(List.of(extra));
        Result result = cli(args.toArray(String[]::new));
        assertThat(result.exit()).as(result.err()).isZero();
        return EventCodec.mapper().readTree(result.out());
    }

    /** @return "store key" of every object of the steps, both stores */
    private static List<String> keys(JsonNode plan, long... steps) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : plan.path("steps")) {
            for (long step : steps) {
                if (s.path("step").asLong() == step) {
                    s.path("stores").fields().forEachRemaining(store -> store.getValue().path("keys")
                            .forEach(k -> out.add(store.getKey() + " " + k.asText())));
                }
            }
        }
        return out;
    }

    /** @return those of {@code keys} ("store key") a HEAD finds in their store */
    private static List<String> present(List<String> keys) {
        List<String> out = new ArrayList<>();
        try (PrimaryStore primary = new PrimaryStore(platform.session().stack());
             PrimaryStore replica = new PrimaryStore(platform.session().stack(), true)) {
            for (String k : keys) {
                String[] parts = k.split(" ", 2);
                PrimaryStore store = "replica".equals(parts[0]) ? replica : primary;
                if (store.head(parts[1]).isPresent()) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    private static List<String> decisions(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.path("steps").forEach(s -> out.add(s.path("step").asLong() + " " + s.path("decision").asText()));
        return out;
    }

    private static List<String> keptBy(JsonNode plan, long step) {
        List<String> out = new ArrayList<>();
        plan.path("steps").forEach(s -> {
            if (s.path("step").asLong() == step) {
                s.path("keptBy").forEach(r -> out.add(r.asText()));
            }
        });
        return out;
    }

    private static long eventCount(String topic, String assetId) throws Exception {
        var stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select count(*) from ledger_event where topic = ? and asset_id = ?")) {
            statement.setString(1, topic);
            statement.setString(2, assetId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static long eventCount(String topic) throws Exception {
        var stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select count(*) from ledger_event where topic = ?")) {
            statement.setString(1, topic);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
