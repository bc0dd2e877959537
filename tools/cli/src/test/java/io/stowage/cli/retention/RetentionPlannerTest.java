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
    void oldKeptStepsThatNoResumeReadsBelongInTheColdClassAndNoOtherStepDoes() {
        java.util.function.BiFunction<Long, Long, CheckpointStepEvidence> aged = (n, days) -> {
            CheckpointStepEvidence s = step(n, false, List.of(object("primary", n, n, VerifyResult.OK, VerifyResult.OK)), 1);
            return new CheckpointStepEvidence(n, s.asset(), 1, n, s.metrics(), List.of(), NOW.minus(java.time.Duration.ofDays(days)),
                    false, null, null, 0, List.of(), n == 300 ? NOW.plusSeconds(3600) : null);
        };
        // 100: 40 days old, expired by keep-last; 200: 40 days, kept by keep-every; 300: 40 days, kept by keep-every and
        // leased; 400: 10 days, kept by keep-every; 500: 40 days, the latest and newest verified
        List<CheckpointStepEvidence> steps = List.of(aged.apply(100L, 40L), aged.apply(200L, 40L), aged.apply(300L, 40L),
                aged.apply(400L, 10L), aged.apply(500L, 40L));
        RetentionPolicy policy = new RetentionPolicy(1, null, null, null, 200, null, null, false,
                java.time.Duration.ofDays(30), null);

        RetentionPlan plan = RetentionPlanner.plan(new RunCheckpoints("e", "r", steps), policy, 500L, NOW);

        assertThat(plan.expired()).extracting(RetentionPlan.Step::step).containsExactly(100L);
        assertThat(plan.cold()).extracting(RetentionPlan.Step::step).as("old, kept and not read by a resume").containsExactly(200L);
        assertThat(plan.cold().get(0).coldClass()).isEqualTo(RetentionPolicy.DEFAULT_COLD_CLASS);
        assertThat(plan.policy()).containsEntry("coldAfter", "PT720H").containsEntry("coldStorageClass", "STANDARD_IA");
        RetentionPlan none = RetentionPlanner.plan(new RunCheckpoints("e", "r", steps), new RetentionPolicy(1, null, null,
                null, 200, null, null, false), 500L, NOW);
        assertThat(none.cold()).isEmpty();
        assertThat(none.policy()).doesNotContainKeys("coldAfter", "coldStorageClass");
    }

    @Test
    void aColdClassMustBeANonStandardS3ClassAndTheCapsuleNamesIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetentionPolicy(null, null, null, null, null, null, null,
                null, java.time.Duration.ofDays(1), "standard_ia")).hasMessageContaining("coldStorageClass");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetentionPolicy(null, null, null, null, null, null, null,
                null, java.time.Duration.ofDays(1), "STANDARD")).hasMessageContaining("not STANDARD");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetentionPolicy(null, null, null, null, null, null, null,
                null, java.time.Duration.ZERO, null)).hasMessageContaining("coldAfter");
        assertThat(new RetentionPolicy(null, null, null, null, null, null, null, null, java.time.Duration.ofDays(1),
                "GLACIER_IR").coldClass()).isEqualTo("GLACIER_IR");
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
