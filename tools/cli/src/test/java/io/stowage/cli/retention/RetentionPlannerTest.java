package io.stowage.cli.retention;

import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RetentionPlannerTest {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final String SHA = "a".repeat(64);

    private static ObjectEvidence object(String store, long step, long bytes, VerifyResult head, VerifyResult full) {
        return new ObjectEvidence(store, "stowage-" + store, "checkpoints/e/r/" + String.format("%012d", step) + "/" + SHA
                + "/model.pt", ObjectKind.CHECKPOINT_FILE, bytes, SHA, "/hot/model.pt", head, full);
    }

    private static CheckpointStepEvidence step(long n, boolean key, List<ObjectEvidence> objects, double loss) {
        AssetEvidence asset = new AssetEvidence("checkpoint/e/r/" + String.format("%012d", n), "checkpoint", "/hot/" + n,
                true, "/stage/" + n + ".json", SHA, key, null, null, null, null, objects, List.of());
        return new CheckpointStepEvidence(n, asset, 1, 10, Map.of("val_loss", loss), List.of(), NOW.minusSeconds(60),
                false, null, null, 0);
    }

    @Test
    void theExpiredStepsKeysAndBytesPerStoreAreWhatThePlanFrees() {
        List<CheckpointStepEvidence> steps = new ArrayList<>();
        steps.add(step(100, true, List.of(object("primary", 100, 10, VerifyResult.OK, VerifyResult.OK),
                object("replica", 100, 10, VerifyResult.OK, null)), 0.9));
        steps.add(step(200, false, List.of(object("primary", 200, 20, VerifyResult.OK, VerifyResult.OK)), 0.8));
        steps.add(step(300, false, List.of(object("primary", 300, 30, VerifyResult.OK, VerifyResult.OK)), 0.7));
        RetentionPolicy keepLastOne = new RetentionPolicy(1, null, null, null, null, null, false);

        RetentionPlan plan = RetentionPlanner.plan(new RunCheckpoints("e", "r", steps), keepLastOne, 300L, NOW);

        assertThat(plan.expired()).extracting(RetentionPlan.Step::step).containsExactly(100L, 200L);
        assertThat(plan.freed().get("primary").bytes()).isEqualTo(30);
        assertThat(plan.freed().get("replica").bytes()).isEqualTo(10);
        assertThat(plan.freed().get("replica").keys()).containsExactly(steps.get(0).asset().objects().get(1).key());
        assertThat(plan.steps().get(2).keptBy()).containsExactly("latest", "newest-verified", "keep-last");
    }

    @Test
    void aStepWithABadOrMissingVerificationIsUnverifiedAndKept() {
        CheckpointStepEvidence noFullRead = step(100, false, List.of(object("primary", 100, 10, VerifyResult.OK, null)), 1);
        CheckpointStepEvidence badHead = step(200, false, List.of(object("primary", 200, 10, VerifyResult.MISMATCH, VerifyResult.OK)), 1);
        CheckpointStepEvidence keyWithoutReplica = step(300, true, List.of(object("primary", 300, 10, VerifyResult.OK, VerifyResult.OK)), 1);
        CheckpointStepEvidence good = step(400, false, List.of(object("primary", 400, 10, VerifyResult.OK, VerifyResult.OK)), 1);
        RetentionPolicy keepLastOne = new RetentionPolicy(1, null, null, null, null, null, false);

        RetentionPlan plan = RetentionPlanner.plan(new RunCheckpoints("e", "r", List.of(noFullRead, badHead,
                keyWithoutReplica, good)), keepLastOne, null, NOW);

        assertThat(plan.expired()).isEmpty();
        assertThat(plan.steps()).extracting(RetentionPlan.Step::verified).containsExactly(false, false, false, true);
    }

    @Test
    void aStepTheLedgerListsAsPromotedIsKeptUnpinnedAndThePlanNamesTheRevision() {
        CheckpointStepEvidence plain = step(100, false, List.of(object("primary", 100, 10, VerifyResult.OK, VerifyResult.OK)), 1);
        CheckpointStepEvidence p = step(200, false, List.of(object("primary", 200, 10, VerifyResult.OK, VerifyResult.OK)), 1);
        CheckpointStepEvidence promoted = new CheckpointStepEvidence(200, p.asset(), 1, 10, p.metrics(), List.of(),
                p.publishedAt(), false, null, null, 0, List.of("model/tiny/r1"));
        CheckpointStepEvidence newest = step(300, false, List.of(object("primary", 300, 10, VerifyResult.OK, VerifyResult.OK)), 1);
        RetentionPolicy keepLastOne = new RetentionPolicy(1, null, null, null, null, null, false);

        RetentionPlan plan = RetentionPlanner.plan(new RunCheckpoints("e", "r", List.of(plain, promoted, newest)),
                keepLastOne, 300L, NOW);

        assertThat(plan.expired()).extracting(RetentionPlan.Step::step).containsExactly(100L);
        assertThat(plan.steps().get(1).keptBy()).containsExactly("promoted");
        assertThat(plan.steps().get(1).promotedTo()).containsExactly("model/tiny/r1");
        assertThat(plan.steps().get(1).pinned()).isFalse();
    }
}
