package io.stowage.provideradapter.domain.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.stowage.events.GateSignature;
import io.stowage.events.ProviderAlert;
import io.stowage.events.RetentionDecided;
import io.stowage.events.StowageEvent;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.persistence.FileRetentionJournal;
import io.stowage.provideradapter.persistence.FileRetentionSchedules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The periodic sweep against an in-memory ledger and stores, trying to make it delete more than it may: a run without
 * a schedule is never touched; a pass over the cap deletes nothing, sends no decision and alerts once; within the cap
 * it deletes exactly what the policy expires, after the decision was sent; for every cap, no pass expires more than
 * {@code floor(maxFraction × stored steps)}; an unreadable schedule is never applied; a ledger that cannot be read
 * skips the run.
 */
class RetentionSweepTest {
    private static final String KEY = "test-only-retention-signing-key-0123456789";

    private final FakeRetentionSources sources = new FakeRetentionSources();
    private final List<StowageEvent> sent = new ArrayList<>();
    @TempDir
    Path state;
    private FileRetentionSchedules schedules;
    private RetentionSweep sweep;

    @BeforeEach
    void fourVerifiedSteps() throws IOException {
        sources.add(100, 0.9);
        sources.add(200, 0.2);
        sources.add(300, 0.5);
        sources.add(400, 0.7);
        sources.latest = 400L;
        schedules = FileRetentionSchedules.open(state);
        sweep = sweep(schedules);
    }

    private RetentionSweep sweep(RetentionSchedules from) throws IOException {
        RetentionExecutor executor = new RetentionExecutor(sources, DecisionAuthenticator.of(Optional.of(KEY)),
                FileRetentionJournal.open(state), FakeRetentionSources.CLOCK);
        RetentionDecider decider = new RetentionDecider(sources, new GateSignature(KEY), FakeRetentionSources.CLOCK);
        return new RetentionSweep(from, sources, decider, new RetentionDelivery(executor, sent::addAll), sent::add,
                FakeRetentionSources.CLOCK);
    }

    private static RetentionSchedule keepLast(int n, double maxFraction) {
        return new RetentionSchedule("e", "r", new RetentionDecided.Policy(n, null, null, null, null, null, null, false),
                maxFraction, "ops", Instant.parse("2026-12-01T00:00:00Z"));
    }

    @Test
    void theCommandAHeldPassNamesCarriesTheWholePolicy() {
        assertThat(RetentionSweep.options(new RetentionDecided.Policy(2, 1, "val_loss", "min", 10, "PT6H", "P7D", null)))
                .isEqualTo(" --keep-last 2 --keep-best 1 --metric val_loss --mode min --keep-every 10 --keep-interval PT6H"
                        + " --temporary-ttl P7D");
        assertThat(RetentionSweep.options(new RetentionDecided.Policy(1, null, null, null, null, null, null, false)))
                .isEqualTo(" --keep-last 1 --no-tag-pins");
    }

    @Test
    void aRunWithoutAScheduleIsNeverSwept() {
        assertThat(sweep.pass()).isEmpty();
        assertThat(sources.deleted).isEmpty();
        assertThat(sent).isEmpty();
    }

    @Test
    void aPassOverTheCapDeletesNothingSendsNoDecisionAndAlertsOnce() throws Exception {
        // keep-last 1 expires 100, 200, 300: 3 of 4 stored steps, over a cap of floor(0.5 × 4) = 2
        schedules.put(keepLast(1, 0.5));

        RetentionSweep.RunPass first = sweep.pass().get(0);
        RetentionSweep.RunPass second = sweep.pass().get(0);

        assertThat(first.result()).isEqualTo("held");
        assertThat(first.wouldExpire()).containsExactly(100L, 200L, 300L);
        assertThat(first.cap()).isEqualTo(2);
        assertThat(first.expired()).isEmpty();
        assertThat(first.detail()).contains("nothing deleted").contains("stowage retention apply --experiment e --run r --keep-last 1 --no-tag-pins`");
        assertThat(second.result()).isEqualTo("held");
        assertThat(sources.deleted).isEmpty();
        assertThat(sources.stored).hasSize(8);
        assertThat(sent).as("one alert for the held set, no decision").singleElement()
                .isInstanceOfSatisfying(ProviderAlert.class, alert -> {
                    assertThat(alert.code()).isEqualTo(RetentionSweep.HELD);
                    assertThat(alert.resourceKind()).isEqualTo("run");
                    assertThat(alert.resourceId()).isEqualTo("e/r");
                    assertThat(alert.blockers()).containsExactly("step 100", "step 200", "step 300");
                });
    }

    @Test
    void withinTheCapItDeletesExactlyWhatThePolicyExpiresAfterTheDecisionWasSent() throws Exception {
        schedules.put(keepLast(3, 0.5));

        RetentionSweep.RunPass pass = sweep.pass().get(0);

        assertThat(pass.result()).isEqualTo("applied");
        assertThat(pass.expired()).containsExactly(100L);
        assertThat(pass.refused()).isEmpty();
        assertThat(sources.stored).noneMatch(k -> k.contains("/000000000100/")).hasSize(6);
        assertThat(sent.get(0)).isInstanceOfSatisfying(RetentionDecided.class, d -> {
            assertThat(d.requestedBy()).isEqualTo("sweep (scheduled by ops)");
            assertThat(d.meta().eventId()).isEqualTo(pass.decisionId());
        });
        assertThat(sent).extracting(StowageEvent::topic).containsExactly("retention.decided", "checkpoint.expired");
    }

    @Test
    void noPassExpiresMoreThanItsCapAndNoneExpiresTheLatestStep() throws Exception {
        for (double fraction : new double[] {0.01, 0.25, 0.5, 0.74, 0.75, 1.0}) {
            for (int keep = 1; keep <= 4; keep++) {
                FakeRetentionSources fresh = new FakeRetentionSources();
                List.of(100L, 200L, 300L, 400L).forEach(s -> fresh.add(s, s / 1000.0));
                fresh.latest = 400L;
                Path dir = Files.createTempDirectory(state, "case");
                FileRetentionSchedules own = FileRetentionSchedules.open(dir);
                own.put(keepLast(keep, fraction));
                RetentionExecutor executor = new RetentionExecutor(fresh, DecisionAuthenticator.of(Optional.of(KEY)),
                        FileRetentionJournal.open(dir), FakeRetentionSources.CLOCK);
                RetentionSweep s = new RetentionSweep(own, fresh, new RetentionDecider(fresh, new GateSignature(KEY),
                        FakeRetentionSources.CLOCK), new RetentionDelivery(executor, events -> { }), e -> { },
                        FakeRetentionSources.CLOCK);

                RetentionSweep.RunPass pass = s.pass().get(0);

                int cap = (int) Math.floor(fraction * 4 + 1e-9);
                long deletedSteps = fresh.deleted.stream().map(k -> k.replaceAll(".*/(\\d{12})/.*", "$1")).distinct().count();
                assertThat(deletedSteps).as("fraction %s keep-last %d", fraction, keep).isLessThanOrEqualTo(cap);
                assertThat(deletedSteps).isEqualTo(pass.expired().size());
                assertThat(fresh.deleted).noneMatch(k -> k.contains("/000000000400/"));
                int wouldExpire = 4 - keep;
                assertThat(pass.result()).isEqualTo(wouldExpire == 0 ? "nothing" : wouldExpire > cap ? "held" : "applied");
            }
        }
    }

    @Test
    void anUnreadableScheduleIsListedAndNeverApplied() throws Exception {
        schedules.put(keepLast(1, 1.0));
        Path file;
        try (var files = Files.list(state.resolve(FileRetentionSchedules.DIR_NAME))) {
            file = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
        }
        Files.writeString(file, "{\"experiment\":\"e\",\"run\":\"r\",\"policy\":{\"keepLast\":1},\"maxFraction\":");

        FileRetentionSchedules reopened = FileRetentionSchedules.open(state);
        List<RetentionSweep.RunPass> passes = sweep(reopened).pass();

        assertThat(reopened.unreadable()).singleElement().asString().contains(file.getFileName().toString());
        assertThat(passes).isEmpty();
        assertThat(sources.deleted).isEmpty();
        assertThat(file).exists();
    }

    @Test
    void aScheduleSurvivesAReopenAndRemovingItStopsTheSweep() throws Exception {
        schedules.put(keepLast(3, 0.5));
        FileRetentionSchedules reopened = FileRetentionSchedules.open(state);
        assertThat(reopened.all()).containsExactly(keepLast(3, 0.5));

        assertThat(reopened.remove("e", "r")).contains(keepLast(3, 0.5));
        assertThat(FileRetentionSchedules.open(state).all()).isEmpty();
        assertThat(sweep(FileRetentionSchedules.open(state)).pass()).isEmpty();
        assertThat(sources.deleted).isEmpty();
    }

    @Test
    void aLedgerThatCannotBeReadSkipsTheRunAndDeletesNothing() throws Exception {
        schedules.put(keepLast(1, 1.0));
        sources.capsules.add(capsule(400, new RetentionDecided.Policy(1, null, null, null, null, null, null, false)));
        sources.ledgerDown = true;

        List<RetentionSweep.RunPass> passes = sweep.pass();

        assertThat(passes).extracting(RetentionSweep.RunPass::result).containsExactly("skipped", "skipped");
        assertThat(passes.get(0).experiment()).isEqualTo("*");
        assertThat(passes.get(0).detail()).contains("capsules' retention policies cannot be read").contains("connection refused");
        assertThat(passes.get(1).run()).isEqualTo("r");
        assertThat(passes.get(1).detail()).contains("connection refused").contains("nothing deleted");
        assertThat(sources.deleted).isEmpty();
        assertThat(sent).isEmpty();
    }

    private static io.stowage.events.ledger.RunRetentionPolicy capsule(long step, RetentionDecided.Policy policy) {
        return new io.stowage.events.ledger.RunRetentionPolicy("e", "r", step, Instant.parse("2026-12-01T11:00:00Z"), policy);
    }

    @Test
    void aRunWhoseCapsuleStatesAPolicyIsSweptWithoutAnOperatorAndWithTheDefaultCap() {
        sources.capsules.add(capsule(400, new RetentionDecided.Policy(3, null, null, null, null, null, null, false)));

        RetentionSweep.RunPass pass = sweep.pass().get(0);

        assertThat(pass.result()).isEqualTo("applied");
        assertThat(pass.cap()).isEqualTo(2);
        assertThat(pass.expired()).containsExactly(100L);
        assertThat(sources.stored).noneMatch(k -> k.contains("/000000000100/")).hasSize(6);
        assertThat(sent.get(0)).isInstanceOfSatisfying(RetentionDecided.class,
                d -> assertThat(d.requestedBy()).isEqualTo("sweep (policy of the capsule at step 400)"));
        assertThat(sweep.standing().schedules()).singleElement()
                .satisfies(s -> {
                    assertThat(s.source()).isEqualTo(RetentionSchedule.CAPSULE);
                    assertThat(s.maxFraction()).isEqualTo(RetentionSchedule.DEFAULT_MAX_FRACTION);
                });
    }

    @Test
    void aCapsulePolicyOverTheDefaultCapIsHeldLikeAnOperators() {
        // keep-last 1 would expire 3 of 4: over floor(0.5 x 4) = 2
        sources.capsules.add(capsule(400, new RetentionDecided.Policy(1, null, null, null, null, null, null, null)));

        RetentionSweep.RunPass pass = sweep.pass().get(0);

        assertThat(pass.result()).isEqualTo("held");
        assertThat(pass.wouldExpire()).containsExactly(100L, 200L, 300L);
        assertThat(sources.deleted).isEmpty();
        assertThat(sent).singleElement().isInstanceOf(ProviderAlert.class);
    }

    @Test
    void anOperatorsScheduleOverridesTheCapsulesPolicy() throws Exception {
        sources.capsules.add(capsule(400, new RetentionDecided.Policy(2, null, null, null, null, null, null, false)));
        schedules.put(keepLast(4, 0.5));

        List<RetentionSweep.RunPass> passes = sweep.pass();

        assertThat(passes).singleElement().extracting(RetentionSweep.RunPass::result).isEqualTo("nothing");
        assertThat(sweep.standing().schedules()).singleElement().extracting(RetentionSchedule::source)
                .isEqualTo(RetentionSchedule.OPERATOR);
        assertThat(sources.deleted).isEmpty();
        assertThat(sent).isEmpty();
    }

    @Test
    void aCapsulePolicyTheRulesRefuseIsSkippedAndOneWithoutARuleIsNotAStandingPolicy() {
        // keep-best without a metric: refused by the rules, so the run is not swept
        sources.capsules.add(capsule(400, new RetentionDecided.Policy(null, 1, null, null, null, null, null, null)));
        List<RetentionSweep.RunPass> refused = sweep.pass();
        assertThat(refused).singleElement().satisfies(p -> {
            assertThat(p.result()).isEqualTo("skipped");
            assertThat(p.detail()).contains("capsule's retention policy at step 400 is refused").contains("metric");
        });

        sources.capsules.clear();
        sources.capsules.add(capsule(400, new RetentionDecided.Policy(null, null, null, null, null, null, null, false)));
        assertThat(sweep.pass()).isEmpty();
        assertThat(sweep.standing().schedules()).isEmpty();
        assertThat(sources.deleted).isEmpty();
        assertThat(sent).isEmpty();
    }
}
