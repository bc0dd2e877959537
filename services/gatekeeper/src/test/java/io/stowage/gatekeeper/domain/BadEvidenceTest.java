package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.FailedCondition;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.stowage.gatekeeper.EvidenceFixture.withObjects;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Condition 2's first half: the newest HEAD and full-read result of every object of an asset, in every store,
 * must not be MISMATCH, MISSING or ERROR; one good re-read never outweighs a bad one.
 */
class BadEvidenceTest {
    static final Path STEP = Path.of("/vol/ckpt/exp/run1/step-100");
    static final Path DATASET = Path.of("/vol/data/speech");

    final InMemoryTree tree = new InMemoryTree();
    final GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/data")), tree, TestStore.holdingEverything());

    AssetEvidence checkpoint(boolean key) {
        return EvidenceFixture.checkpoint(tree::file, STEP, Path.of("/vol/staging/checkpoints/exp/run1/100.json"),
                Map.of("model.bin", "weights", "optimizer.bin", "adam state"), key);
    }

    GateDecision evaluate(Path dir, AssetEvidence asset) {
        return gate.evaluate(dir.toString(), new ReleaseEvidence(dir.toString(), List.of(asset)));
    }

    /** @return the asset with the object(s) matching {@code which} given these newest results and event ids */
    static AssetEvidence with(AssetEvidence asset, Predicate<ObjectEvidence> which, VerifyResult head, String headId,
                              VerifyResult fullRead, String fullReadId) {
        return withObjects(asset, objects -> objects.stream().map(o -> !which.test(o) ? o
                : new ObjectEvidence(o.store(), o.bucket(), o.key(), o.kind(), o.bytes(), o.sha256(), o.localPath(),
                head, fullRead, o.uploadedEventId(), headId, fullReadId)).toList());
    }

    static Predicate<ObjectEvidence> file(String store, String name) {
        return o -> store.equals(o.store()) && o.key().endsWith("/" + name);
    }

    static String key(AssetEvidence asset, String name) {
        return asset.objects().stream().filter(file("primary", name)).findFirst().orElseThrow().key();
    }

    static List<FailedCondition> badEvidence(GateDecision decision) {
        return decision.failed().stream().filter(f -> f.code().equals("bad-evidence")).toList();
    }

    @Test
    void oneOkFullReadDoesNotOutweighAMismatchOfAnotherFile() {
        AssetEvidence asset = checkpoint(false);
        AssetEvidence evidence = with(with(asset, file("primary", "model.bin"), VerifyResult.OK, "h1", VerifyResult.OK,
                "f-ok"), file("primary", "optimizer.bin"), VerifyResult.OK, "h2", VerifyResult.MISMATCH, "f-bad");

        GateDecision decision = evaluate(STEP, evidence);

        assertThat(decision.passed()).isFalse();
        assertThat(badEvidence(decision)).singleElement().satisfies(f -> {
            assertThat(f.condition()).isEqualTo(2);
            assertThat(f.detail()).contains(key(asset, "optimizer.bin") + " in primary: FULL_READ MISMATCH (event f-bad)")
                    .doesNotContain(key(asset, "model.bin"));
        });
        ConditionResult two = decision.conditions().get(1);
        assertThat(two.passed()).isFalse();
        assertThat(two.evidence()).contains("f-bad", "f-ok");
    }

    @Test
    void aLaterOkFullReadOfTheSameContentClearsAMismatch() {
        // the ledger keeps the newest full read of the object's content: after MISMATCH then OK it answers OK
        AssetEvidence asset = checkpoint(false);
        AssetEvidence evidence = with(with(asset, file("primary", "model.bin"), VerifyResult.OK, "h1", VerifyResult.OK,
                "f-1"), file("primary", "optimizer.bin"), VerifyResult.OK, "h2", VerifyResult.OK, "f-2-reread");

        GateDecision decision = evaluate(STEP, evidence);

        assertThat(decision.failed()).isEmpty();
        assertThat(decision.passed()).isTrue();
        assertThat(decision.conditions().get(1).reason()).contains("2 object(s)");
    }

    @Test
    void aMissingReplicaObjectOfAKeyCheckpointIsDeniedByStore() {
        AssetEvidence asset = checkpoint(true);
        AssetEvidence evidence = with(asset, file("replica", "optimizer.bin"), VerifyResult.MISSING, "h-replica",
                null, null);

        GateDecision decision = evaluate(STEP, evidence);

        assertThat(decision.passed()).isFalse();
        assertThat(badEvidence(decision)).singleElement().satisfies(f -> assertThat(f.detail())
                .contains(key(asset, "optimizer.bin") + " in replica: HEAD MISSING (event h-replica)"));
        assertThat(decision.failed()).extracting(FailedCondition::code).contains("no-replica-copy");
    }

    @Test
    void aHeadErrorNewerThanAnEarlierOkDenies() {
        // newest HEAD is ERROR: the earlier OK no longer counts, and ERROR says nothing about the object
        AssetEvidence asset = checkpoint(false);
        AssetEvidence evidence = with(asset, file("primary", "model.bin"), VerifyResult.ERROR, "h-error",
                VerifyResult.OK, "f-ok");

        GateDecision decision = evaluate(STEP, evidence);

        assertThat(decision.passed()).isFalse();
        assertThat(badEvidence(decision)).singleElement().satisfies(f -> assertThat(f.detail())
                .contains(key(asset, "model.bin") + " in primary: HEAD ERROR (event h-error)"));
        assertThat(decision.failed()).extracting(FailedCondition::code).contains("head-not-ok");
    }

    @Test
    void aBadResultOnAnObjectNoManifestNamesStillDenies() {
        AssetEvidence asset = checkpoint(false);
        ObjectEvidence stray = new ObjectEvidence("primary", "stowage-primary", "checkpoints/exp/run1/100/old/x.bin",
                ObjectKind.CHECKPOINT_FILE, 3, "c".repeat(64), null, VerifyResult.OK, VerifyResult.MISMATCH,
                "up-x", "head-x", "full-x");
        AssetEvidence evidence = withObjects(asset, objects -> java.util.stream.Stream.concat(objects.stream(),
                java.util.stream.Stream.of(stray)).toList());

        GateDecision decision = evaluate(STEP, evidence);

        assertThat(badEvidence(decision)).singleElement().satisfies(f -> assertThat(f.detail())
                .contains("checkpoints/exp/run1/100/old/x.bin in primary: FULL_READ MISMATCH (event full-x)"));
    }

    @Test
    void aDatasetShardWithAMismatchedReReadIsDeniedEvenWithHeadOk() {
        AssetEvidence asset = EvidenceFixture.dataset(tree::file, DATASET, Path.of("/vol/staging/speech/r1"),
                Map.of("a/1.wav", "one"));
        AssetEvidence evidence = with(asset, o -> o.kind() == ObjectKind.SHARD, VerifyResult.OK, "h", VerifyResult.MISMATCH,
                "f-mismatch");

        GateDecision decision = evaluate(DATASET, evidence);

        assertThat(decision.failed()).extracting(f -> f.condition() + ":" + f.code())
                .containsExactlyInAnyOrder("2:bad-evidence", "2:no-full-read");
        assertThat(badEvidence(decision).get(0).detail()).contains("FULL_READ MISMATCH (event f-mismatch)");
    }

    @Test
    void anOutstandingDeadLetterAboutTheAssetDeniesThoughEveryResultIsOk() {
        // an object.verified that did not decode may have been a MISMATCH: the OKs the ledger holds may not be the newest
        AssetEvidence asset = checkpoint(false);
        AssetEvidence allOk = with(asset, o -> true, VerifyResult.OK, "h", VerifyResult.OK, "f");
        assertThat(evaluate(STEP, allOk).passed()).as("the same evidence without the dead letter passes").isTrue();
        AssetEvidence evidence = EvidenceFixture.withDeadLetters(allOk, List.of(new io.stowage.events.ledger.DeadLetterNote(
                "dlq:v-7", "object.verified.dlq", "not an ObjectVerified: unknown field")));

        GateDecision decision = evaluate(STEP, evidence);

        assertThat(decision.passed()).isFalse();
        assertThat(badEvidence(decision)).singleElement().satisfies(f -> {
            assertThat(f.condition()).isEqualTo(2);
            assertThat(f.detail()).contains("dead letter on object.verified.dlq (event dlq:v-7: not an ObjectVerified");
        });
        assertThat(decision.conditions().get(1).evidence()).contains("dlq:v-7");
    }
}
