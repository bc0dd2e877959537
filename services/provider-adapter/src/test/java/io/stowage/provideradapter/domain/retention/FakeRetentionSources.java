package io.stowage.provideradapter.domain.retention;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ledger's steps of run e/r and both stores in memory, for plain tests of the retention executor; {@link #crashAt}
 * makes the n-th deletion (1-based) throw {@link Crash}, as if the process were killed right there.
 */
final class FakeRetentionSources implements RetentionSources {
    static final String SHA = "b".repeat(64);
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);

    /** The process "killed": an Error, so that no catch of the code under test swallows it. */
    static final class Crash extends Error {
        Crash(String where) {
            super("killed " + where);
        }
    }

    int crashAt;
    final List<CheckpointStepEvidence> steps = new ArrayList<>();
    final Set<String> stored = new TreeSet<>();
    final List<String> deleted = new ArrayList<>();
    final Set<String> undeletable = new TreeSet<>();
    Long latest;
    boolean ledgerDown;
    /** What the ledger answers to GET /api/checkpoints/policies. */
    final List<io.stowage.events.ledger.RunRetentionPolicy> capsules = new ArrayList<>();

    void add(long n, double loss) {
        steps.add(evidence(n, loss, VerifyResult.OK, false, null));
        stored.add("primary " + key(n));
        stored.add("replica " + key(n));
    }

    void addUnverified(long n) {
        steps.add(evidence(n, 0.1, null, false, null));
        stored.add("primary " + key(n));
    }

    void pin(long n) {
        replace(n, s -> new CheckpointStepEvidence(s.step(), s.asset(), s.fileCount(), s.totalBytes(), s.metrics(),
                s.tags(), s.publishedAt(), true, null, null, 0));
    }

    void lease(long n, java.time.Instant until) {
        replace(n, s -> new CheckpointStepEvidence(s.step(), s.asset(), s.fileCount(), s.totalBytes(), s.metrics(),
                s.tags(), s.publishedAt(), s.pinned(), null, null, 0, s.promotedTo(), until));
    }

    void promote(long n, String model) {
        replace(n, s -> new CheckpointStepEvidence(s.step(), s.asset(), s.fileCount(), s.totalBytes(), s.metrics(),
                s.tags(), s.publishedAt(), false, null, null, 0, List.of(model)));
    }

    void expire(long n, String eventId) {
        replace(n, s -> new CheckpointStepEvidence(s.step(), s.asset(), s.fileCount(), s.totalBytes(), s.metrics(),
                s.tags(), s.publishedAt(), s.pinned(), eventId, CLOCK.instant(), s.totalBytes()));
    }

    private void replace(long n, java.util.function.UnaryOperator<CheckpointStepEvidence> change) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).step() == n) {
                steps.set(i, change.apply(steps.get(i)));
            }
        }
    }

    private static CheckpointStepEvidence evidence(long n, double loss, VerifyResult full, boolean pinned, String expired) {
        List<ObjectEvidence> objects = new ArrayList<>();
        objects.add(new ObjectEvidence("primary", "stowage-primary", key(n), ObjectKind.CHECKPOINT_FILE, 100, SHA,
                "/hot/" + n + "/model.pt", full == null ? null : VerifyResult.OK, full));
        if (full != null) {
            objects.add(new ObjectEvidence("replica", "stowage-replica", key(n), ObjectKind.CHECKPOINT_FILE, 100, SHA,
                    "/hot/" + n + "/model.pt", VerifyResult.OK, null));
        }
        AssetEvidence asset = new AssetEvidence("checkpoint/e/r/" + String.format("%012d", n), "checkpoint",
                "/hot/" + n, true, "/stage/" + n + ".json", SHA, false, null, null, null, null, objects, List.of());
        return new CheckpointStepEvidence(n, asset, 1, 100, Map.of("val_loss", loss), List.of(),
                CLOCK.instant().minusSeconds(3600), pinned, expired, null, 0);
    }

    @Override
    public RunCheckpoints steps(String experiment, String run) throws IOException {
        if (ledgerDown) {
            throw new IOException("connection refused");
        }
        return new RunCheckpoints(experiment, run, List.copyOf(steps));
    }

    @Override
    public List<io.stowage.events.ledger.RunRetentionPolicy> capsulePolicies() throws IOException {
        if (ledgerDown) {
            throw new IOException("connection refused");
        }
        return List.copyOf(capsules);
    }

    @Override
    public Long latestStep(String experiment, String run) {
        return latest;
    }

    @Override
    public Map<String, String> buckets() {
        return Map.of("primary", "stowage-primary", "replica", "stowage-replica");
    }

    @Override
    public void delete(String store, String key) {
        if (crashAt > 0 && deleted.size() + 1 == crashAt) {
            throw new Crash("before deleting " + store + " " + key);
        }
        deleted.add(store + " " + key);
        if (!undeletable.contains(store + " " + key)) {
            stored.remove(store + " " + key);
        }
    }

    @Override
    public boolean exists(String store, String key) {
        return stored.contains(store + " " + key);
    }

    static String key(long step) {
        return "checkpoints/e/r/" + String.format("%012d", step) + "/" + SHA + "/model.pt";
    }
}
