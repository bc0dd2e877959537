package io.stowage.ledger.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.RunTimes;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RunAccountingTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private static EventMeta at(long seconds) {
        return new EventMeta("e-" + seconds + "-" + Math.random(), 1, T0.plusSeconds(seconds), "run/exp/r", null);
    }

    private static RunAttemptRecord attempt(String id, long startSecond, RunTimes times, long step, String outcome,
                                            String reason) {
        RunAttemptRecord a = RunAttemptProjection.apply(null, RunStarted.of(at(startSecond), "exp", "r", id, null, "res-1"));
        long end = startSecond + Math.round(times.wallSeconds());
        return outcome == null ? RunAttemptProjection.apply(a, RunProgress.of(at(end), "exp", "r", id, step, times))
                : RunAttemptProjection.apply(a, RunFinished.of(at(end), "exp", "r", id, step, times, outcome, reason));
    }

    @Test
    void timesAreSummedOverAttemptsAndAPreemptionCostsTheTimeSinceItsLastCheckpointAtThePodsRate() {
        // attempt 1: 0..1000 s, checkpoint published at 600 s, then the machine is taken (no finish line)
        RunAttemptRecord first = attempt("a1", 0, new RunTimes(1000, 800, 100, 20), 400, null, null);
        // attempt 2: resumed at 1100 s, runs 500 s and completes
        RunAttemptRecord second = attempt("a2", 1100, new RunTimes(500, 420, 30, 10), 650, "completed", null);
        List<RunAccounting.Step> steps = List.of(
                new RunAccounting.Step(350, T0.plusSeconds(600), T0.plusSeconds(612), 1000),
                new RunAccounting.Step(650, T0.plusSeconds(1595), T0.plusSeconds(1600), 2000),
                new RunAccounting.Step(700, T0.plusSeconds(1599), null, 500),
                // expired by retention: its objects left the ledger; it is neither verified nor waiting
                new RunAccounting.Step(300, T0.plusSeconds(500), null, 0, true));

        RunReport report = RunAccounting.account("exp", "r", List.of(second, first), steps, new BigDecimal("0.36"));

        assertThat(report.wallSeconds()).isEqualTo(1500.0);
        assertThat(report.trainingSeconds()).isEqualTo(1220.0);
        assertThat(report.dataWaitSeconds()).isEqualTo(130.0);
        assertThat(report.checkpointWriteSeconds()).isEqualTo(30.0);
        assertThat(report.checkpointOverhead()).isEqualTo(new RunReport.CheckpointOverhead(2, 1, 17.0, 12.0));
        assertThat(report.interruptions()).singleElement().satisfies(i -> {
            assertThat(i.attemptId()).isEqualTo("a1");
            assertThat(i.kind()).isEqualTo("preempted");
            assertThat(i.lostSeconds()).isEqualTo(400.0); // 1000 s − the checkpoint at 600 s
            assertThat(i.lostUsd()).isEqualByComparingTo("0.04"); // 400 s at 0.36 USD/h
        });
        assertThat(report.lostUsd()).isEqualByComparingTo("0.04");
        assertThat(report.checkpointBytes()).isEqualTo(3500);
        assertThat(report.verdict()).isEqualTo("finished");
        assertThat(report.attempts()).extracting(RunAttemptRecord::attemptId).containsExactly("a1", "a2");
        assertThat(report.lastStep()).isEqualTo(650);
    }

    @Test
    void aFailureWithoutAnyCheckpointLosesItsWholeAttemptAndWithoutAPodPriceNoMoneyIsClaimed() {
        RunAttemptRecord failed = attempt("a1", 0, new RunTimes(90, 80, 5, 0), 12, "failed", "CUDA out of memory");

        RunReport report = RunAccounting.account("exp", "r", List.of(failed), List.of(), null);

        assertThat(report.interruptions()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("failed");
            assertThat(i.reason()).isEqualTo("CUDA out of memory");
            assertThat(i.lostSeconds()).isEqualTo(90.0);
            assertThat(i.lostUsd()).isNull();
        });
        assertThat(report.lostUsd()).isNull();
        assertThat(report.verdict()).isEqualTo("failed");
    }

    @Test
    void theVerdictNamesACapStopARunningAttemptAndARunNotStarted() {
        RunAttemptRecord capped = attempt("a1", 0, new RunTimes(5, 4, 1, 0), 30, "stopped", "cap-reached");
        RunAttemptRecord running = attempt("a2", 100, new RunTimes(5, 4, 1, 0), 60, null, null);
        assertThat(RunAccounting.account("exp", "r", List.of(capped), List.of(), null).verdict()).isEqualTo("stopped at cap");
        assertThat(RunAccounting.account("exp", "r", List.of(capped, running), List.of(), null).verdict()).isEqualTo("running");
        assertThat(RunAccounting.account("exp", "r", List.of(capped, running), List.of(), null).interruptions()).isEmpty();
        assertThat(RunAccounting.account("exp", "r", List.of(), List.of(), null).verdict()).isEqualTo("not started");
    }

    @Test
    void anOlderProgressAndAnythingAfterTheFinishChangeNothing() {
        RunAttemptRecord a = RunAttemptProjection.apply(null, RunStarted.of(at(0), "exp", "r", "a1", 350L, "res-1"));
        a = RunAttemptProjection.apply(a, RunProgress.of(at(20), "exp", "r", "a1", 400, new RunTimes(20, 15, 2, 1)));
        RunAttemptRecord older = RunAttemptProjection.apply(a, RunProgress.of(at(10), "exp", "r", "a1", 380, new RunTimes(10, 7, 1, 0)));
        assertThat(older).isEqualTo(a);
        RunAttemptRecord done = RunAttemptProjection.apply(a, RunFinished.of(at(30), "exp", "r", "a1", 420,
                new RunTimes(30, 22, 3, 2), "stopped", "cap-reached"));
        assertThat(RunAttemptProjection.apply(done, RunProgress.of(at(40), "exp", "r", "a1", 500, new RunTimes(40, 30, 3, 2))))
                .isEqualTo(done);
        assertThat(RunAttemptProjection.apply(done, RunFinished.of(at(50), "exp", "r", "a1", 500,
                new RunTimes(50, 40, 3, 2), "failed", "x"))).isEqualTo(done);
        assertThat(done.resumedFromStep()).isEqualTo(350L);
        assertThat(done.wallSeconds()).isEqualTo(30.0);
        assertThat(done.step()).isEqualTo(420);
    }
}
