package io.stowage.ledger.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Accounts one training run from its attempts, its checkpoint steps and the hourly cost of its pods: wall, training,
 * data-wait and checkpoint-write seconds summed over the attempts; the checkpoint overhead (each verified step from
 * its publication to the moment its last object was verified); the preemptions and failures with the time and money
 * they lost; the bytes its checkpoints keep in the store; and the run's verdict. Pure: no clock, no database.
 */
public final class RunAccounting {
    private RunAccounting() {
    }

    /**
     * One checkpoint step as the accounting sees it.
     *
     * @param publishedAt its checkpoint.published time (when the step was written and handed over), null if unknown
     * @param verifiedAt  when its last object in the primary store was verified (HEAD OK), null while any is not
     * @param bytes       the step's bytes in the store, 0 once expired
     * @param expired     true once retention deleted it (checkpoint.expired): its objects are gone from the ledger, so
     *                    it counts neither as verified nor as waiting for verification in the checkpoint overhead
     */
    public record Step(long step, Instant publishedAt, Instant verifiedAt, long bytes, boolean expired) {
        /** A step retention has not expired. */
        public Step(long step, Instant publishedAt, Instant verifiedAt, long bytes) {
            this(step, publishedAt, verifiedAt, bytes, false);
        }
    }

    /**
     * @param attempts     every attempt of the run, in any order
     * @param steps        every checkpoint step of the run
     * @param podsUsdPerHour what the run's pods cost together per hour (US dollars), null when no pod price is known
     * @return the run's report
     */
    public static RunReport account(String experiment, String run, List<RunAttemptRecord> attempts, List<Step> steps,
                                    BigDecimal podsUsdPerHour) {
        List<RunAttemptRecord> ordered = attempts.stream().sorted(Comparator.comparing(RunAccounting::began,
                Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(RunAttemptRecord::attemptId)).toList();
        double wall = 0;
        double training = 0;
        double dataWait = 0;
        double writing = 0;
        List<RunReport.Interruption> interruptions = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            RunAttemptRecord a = ordered.get(i);
            wall += a.wallSeconds();
            training += a.trainingSeconds();
            dataWait += a.dataWaitSeconds();
            writing += a.checkpointSeconds();
            String kind = interruption(a, i < ordered.size() - 1);
            if (kind != null) {
                double lost = lostSeconds(a, steps);
                interruptions.add(new RunReport.Interruption(a.attemptId(), kind, a.outcome() == null
                        ? "ended without run.finished; a later attempt started" : a.reason(), a.step(), round(lost),
                        podsUsdPerHour == null ? null : usd(podsUsdPerHour, lost)));
            }
        }
        return new RunReport(experiment, run, verdict(ordered), ordered.size(),
                ordered.isEmpty() ? null : ordered.get(ordered.size() - 1).step(), round(wall), round(training),
                round(dataWait), round(writing), overhead(steps), interruptions,
                lost(interruptions, podsUsdPerHour), podsUsdPerHour,
                steps.stream().mapToLong(Step::bytes).sum(), ordered);
    }

    /** @return "running", "finished", "stopped at cap", "stopped", "failed", "preempted", or "not started" */
    static String verdict(List<RunAttemptRecord> ordered) {
        if (ordered.isEmpty()) {
            return "not started";
        }
        RunAttemptRecord last = ordered.get(ordered.size() - 1);
        if (last.outcome() == null) {
            return "running";
        }
        return switch (last.outcome()) {
            case "completed" -> "finished";
            case "stopped" -> last.reason() != null && last.reason().toLowerCase(Locale.ROOT).contains("cap")
                    ? "stopped at cap" : "stopped";
            default -> last.outcome();
        };
    }

    private static String interruption(RunAttemptRecord a, boolean followed) {
        if ("failed".equals(a.outcome()) || "preempted".equals(a.outcome())) {
            return a.outcome();
        }
        return a.outcome() == null && followed ? "preempted" : null;
    }

    /** Seconds of the attempt after its last checkpoint published within it: the work a resume does again. */
    static double lostSeconds(RunAttemptRecord a, List<Step> steps) {
        if (a.startedAt() == null) {
            return a.wallSeconds();
        }
        Instant end = a.startedAt().plusMillis(Math.round(a.wallSeconds() * 1000));
        Instant lastSaved = steps.stream().map(Step::publishedAt)
                .filter(t -> t != null && !t.isBefore(a.startedAt()) && !t.isAfter(end))
                .max(Comparator.naturalOrder()).orElse(a.startedAt());
        return Duration.between(lastSaved, end).toMillis() / 1000.0;
    }

    static RunReport.CheckpointOverhead overhead(List<Step> steps) {
        double total = 0;
        double max = 0;
        int verified = 0;
        int waiting = 0;
        for (Step s : steps) {
            if (s.expired()) {
                continue;
            }
            if (s.publishedAt() == null || s.verifiedAt() == null) {
                waiting++;
            } else {
                double seconds = Math.max(0, Duration.between(s.publishedAt(), s.verifiedAt()).toMillis() / 1000.0);
                total += seconds;
                max = Math.max(max, seconds);
                verified++;
            }
        }
        return new RunReport.CheckpointOverhead(verified, waiting, round(total), round(max));
    }

    private static BigDecimal lost(List<RunReport.Interruption> interruptions, BigDecimal podsUsdPerHour) {
        if (podsUsdPerHour == null) {
            return null;
        }
        return interruptions.stream().map(RunReport.Interruption::lostUsd).reduce(BigDecimal.ZERO, BigDecimal::add)
                .setScale(6, RoundingMode.HALF_EVEN);
    }

    static BigDecimal usd(BigDecimal perHour, double seconds) {
        return perHour.multiply(BigDecimal.valueOf(seconds)).divide(BigDecimal.valueOf(3600), 6, RoundingMode.HALF_EVEN);
    }

    private static Instant began(RunAttemptRecord a) {
        return a.startedAt() != null ? a.startedAt() : a.lastEventAt();
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }
}
