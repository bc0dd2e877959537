package io.stowage.gatekeeper.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate HEADs every object its evidence relies on at decision time: an object the ledger saw verified but that is
 * gone, resized, re-tagged with another SHA-256, or cannot be asked about now denies the release, whatever the
 * ledger's newest verification says.
 */
class StoreAtDecisionTimeTest {
    final InMemoryTree tree = new InMemoryTree();
    final EvidenceFixture.Disk disk = tree::file;
    final TestStore store = TestStore.holdingEverything();
    final GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/data")), tree, store);

    AssetEvidence dataset() {
        return EvidenceFixture.dataset(disk, GateEvaluatorTest.DATASET, Path.of("/vol/staging/speech/r1"),
                GateEvaluatorTest.MEMBERS);
    }

    AssetEvidence keyCheckpoint() {
        return EvidenceFixture.checkpoint(disk, GateEvaluatorTest.STEP,
                Path.of("/vol/staging/checkpoints/exp/run1/100.json"),
                java.util.Map.of("model.bin", "weights", "provenance.json", "{}"), true);
    }

    GateDecision evaluate(Path dir, AssetEvidence asset) {
        return gate.evaluate(dir.toString(), new ReleaseEvidence(dir.toString(), List.of(asset)));
    }

    static String keyOf(AssetEvidence asset, ObjectKind kind) {
        return asset.objects().stream().filter(o -> o.kind() == kind).findFirst().orElseThrow().key();
    }

    @Test
    void everyObjectOfAPassingKeyCheckpointIsHeadedInBothStores() {
        GateDecision decision = evaluate(GateEvaluatorTest.STEP, keyCheckpoint());

        assertThat(decision.passed()).isTrue();
        assertThat(store.asked.get()).isEqualTo(4);
        assertThat(decision.conditions().get(0).reason()).contains("4 of 4 object(s) (2 primary, 2 replica) HEADed");
    }

    @Test
    void aShardGoneFromTheStoreAfterItsVerificationDenies() {
        AssetEvidence asset = dataset();
        String shard = keyOf(asset, ObjectKind.SHARD);
        store.answer("primary", shard, StoreLook.Seen.missing());

        GateDecision decision = evaluate(GateEvaluatorTest.DATASET, asset);

        assertThat(decision.passed()).isFalse();
        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("1:store-object-gone", "2:no-full-read");
        assertThat(decision.failed().get(0).detail()).contains(shard);
        assertThat(decision.conditions().get(1).passed()).as("its only full read no longer counts").isFalse();
        assertThat(decision.conditions().get(1).reason()).contains("gone, changed or not seen")
                .doesNotContain("re-read in full with OK;");
    }

    @Test
    void aFullReadOfAnObjectGoneFromTheStoreNoLongerCountsButAnotherStillDoes() {
        AssetEvidence asset = EvidenceFixture.withObjects(keyCheckpoint(), objects -> objects.stream()
                .map(o -> o.store().equals("primary") && o.kind() == ObjectKind.CHECKPOINT_FILE
                        ? EvidenceFixture.withResults(o, io.stowage.events.VerifyResult.OK,
                        io.stowage.events.VerifyResult.OK) : o).toList());
        store.answer("primary", GateEvaluatorTest.primaryKey(asset, "model.bin"), StoreLook.Seen.missing());

        GateDecision decision = evaluate(GateEvaluatorTest.STEP, asset);

        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("1:store-object-gone");
        assertThat(decision.conditions().get(1).passed()).isTrue();
        assertThat(decision.conditions().get(1).reason()).contains("1 object(s) of", "re-read in full with OK",
                "1 other(s) re-read OK are gone, changed or not seen");
    }

    @Test
    void aMemberManifestTruncatedInTheStoreDenies() {
        AssetEvidence asset = dataset();
        String members = keyOf(asset, ObjectKind.MEMBERS);
        store.answer("primary", members, StoreLook.Seen.present(3, null));

        GateDecision decision = evaluate(GateEvaluatorTest.DATASET, asset);

        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("1:store-object-changed");
        assertThat(decision.conditions().get(1).reason()).as("the shard's full read still counts")
                .contains("1 object(s) of", "re-read in full with OK").doesNotContain("no longer count");
    }

    @Test
    void anObjectOfTheSameSizeWithAnotherSha256MetadataDenies() {
        AssetEvidence asset = keyCheckpoint();
        String model = GateEvaluatorTest.primaryKey(asset, "model.bin");
        store.answer("primary", model, StoreLook.Seen.present(7, "0".repeat(64)));

        assertThat(GateEvaluatorTest.codes(evaluate(GateEvaluatorTest.STEP, asset)))
                .containsExactly("1:store-object-changed", "2:no-full-read");
    }

    @Test
    void aReplicaCopyGoneFromTheReplicaStoreFailsConditionFour() {
        AssetEvidence asset = keyCheckpoint();
        String model = GateEvaluatorTest.primaryKey(asset, "model.bin");
        store.answer("replica", model, StoreLook.Seen.missing());

        assertThat(GateEvaluatorTest.codes(evaluate(GateEvaluatorTest.STEP, asset)))
                .containsExactly("4:no-replica-copy");
    }

    @Test
    void aStoreThatCannotBeAskedDeniesInsteadOfTrustingTheLedger() {
        AssetEvidence asset = keyCheckpoint();
        String model = GateEvaluatorTest.primaryKey(asset, "model.bin");
        store.answer("primary", model, StoreLook.Seen.unreachable("TransientStoreException: 503"));

        GateDecision decision = evaluate(GateEvaluatorTest.STEP, asset);

        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("1:store-unreachable", "2:no-full-read");
        assertThat(decision.failed().get(0).detail()).contains("503");
    }

    static java.util.Set<StoreLook.StoredObject> fullyReadOk(AssetEvidence asset) {
        java.util.Set<StoreLook.StoredObject> out = new java.util.LinkedHashSet<>();
        asset.objects().stream().filter(o -> o.fullReadResult() == io.stowage.events.VerifyResult.OK)
                .filter(o -> o.kind() == ObjectKind.SHARD || o.kind() == ObjectKind.CHECKPOINT_FILE
                        || o.kind() == ObjectKind.MODEL_FILE)
                .forEach(o -> out.add(new StoreLook.StoredObject(o.store(), o.key(), o.bytes(), o.sha256())));
        return out;
    }

    @Test
    void aDecisionThatWouldPassReadsInFullAgainEveryObjectWhoseFullReadCounts() {
        AssetEvidence asset = keyCheckpoint();

        GateDecision decision = evaluate(GateEvaluatorTest.STEP, asset);

        assertThat(decision.passed()).isTrue();
        assertThat(fullyReadOk(asset)).isNotEmpty();
        assertThat(store.read).containsExactlyInAnyOrderElementsOf(fullyReadOk(asset));
        assertThat(decision.conditions().get(1).reason()).contains(fullyReadOk(asset).size() + " of "
                + fullyReadOk(asset).size() + " object(s) re-read in full at decision time");
    }

    @Test
    void aByteChangedInTheStoreAfterTheVerifiersFullReadDenies() {
        AssetEvidence asset = dataset();
        StoreLook.StoredObject shard = fullyReadOk(asset).iterator().next();
        // the HEAD still shows the size and sha256 metadata of the upload: only the content changed
        store.content(shard.store(), shard.key(), StoreLook.Seen.present(shard.bytes(), "f".repeat(64)));

        GateDecision decision = evaluate(GateEvaluatorTest.DATASET, asset);

        assertThat(decision.passed()).isFalse();
        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("1:store-object-changed", "2:no-full-read");
        assertThat(decision.failed().get(0).detail()).contains(shard.key(), "read in full at decision time",
                "f".repeat(64), shard.sha256());
    }

    @Test
    void theDenialOfAChangedObjectUnderAContentAddressedKeyKeepsBothDigests() {
        Findings findings = new Findings();
        String key = "checkpoints/trial27/run-1/000000000100/" + "0".repeat(64) + "/part-b.bin";
        StoreLook.StoredObject object = new StoreLook.StoredObject("primary", key, 204_800, "0".repeat(64));
        TestStore flipped = TestStore.holdingEverything().content("primary", key,
                StoreLook.Seen.present(204_800, "6".repeat(64)));

        new StoreChecks(flipped, findings).reread(List.of(object));

        assertThat(findings.toFailedConditions().get(0).detail()).contains(key, "6".repeat(64), "the manifest 204800"
                + " bytes with sha256 " + "0".repeat(64)).doesNotContain("...");
    }

    @Test
    void aReplicaCopyChangedAfterItsFullReadFailsConditionFour() {
        // the verifier reads every replica copy in full
        AssetEvidence asset = EvidenceFixture.withObjects(keyCheckpoint(), objects -> objects.stream()
                .map(o -> o.store().equals("replica") && o.kind() == ObjectKind.CHECKPOINT_FILE
                        ? EvidenceFixture.withResults(o, io.stowage.events.VerifyResult.OK,
                        io.stowage.events.VerifyResult.OK) : o).toList());
        StoreLook.StoredObject replica = fullyReadOk(asset).stream().filter(o -> o.store().equals("replica"))
                .findFirst().orElseThrow();
        store.content("replica", replica.key(), StoreLook.Seen.present(replica.bytes(), "e".repeat(64)));

        GateDecision decision = evaluate(GateEvaluatorTest.STEP, asset);

        assertThat(decision.passed()).isFalse();
        assertThat(GateEvaluatorTest.codes(decision)).contains("4:no-replica-copy");
        assertThat(decision.failed().stream().filter(f -> f.code().equals("no-replica-copy")).findFirst().orElseThrow()
                .detail()).contains(replica.key(), "read in full at decision time");
    }

    @Test
    void aStoreThatCannotBeReadInFullDeniesInsteadOfTrustingTheEarlierRead() {
        AssetEvidence asset = dataset();
        StoreLook.StoredObject shard = fullyReadOk(asset).iterator().next();
        store.content(shard.store(), shard.key(), StoreLook.Seen.unreachable("TransientStoreException: reset"));

        GateDecision decision = evaluate(GateEvaluatorTest.DATASET, asset);

        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("1:store-unreachable", "2:no-full-read");
    }

    @Test
    void aDecisionAlreadyDeniedReadsNothingInFull() {
        AssetEvidence asset = dataset();
        store.answer("primary", keyOf(asset, ObjectKind.MEMBERS), StoreLook.Seen.missing());

        GateDecision decision = evaluate(GateEvaluatorTest.DATASET, asset);

        assertThat(decision.passed()).isFalse();
        assertThat(store.read).isEmpty();
    }

    @Test
    void aDecisionDeniedOnTheDirectoryReadsNothingInFull() {
        AssetEvidence asset = dataset();
        tree.file(GateEvaluatorTest.DATASET.resolve("notes.txt"), "not archived");

        GateDecision decision = evaluate(GateEvaluatorTest.DATASET, asset);

        assertThat(GateEvaluatorTest.codes(decision)).containsExactly("5:unaccounted-file");
        assertThat(store.read).as("the download comes last, only for a decision that would pass").isEmpty();
    }

    @Test
    void withTheReReadTurnedOffTheEarlierFullReadIsTakenOnTheLedgersWord() {
        AssetEvidence asset = dataset();
        StoreLook.StoredObject shard = fullyReadOk(asset).iterator().next();
        store.content(shard.store(), shard.key(), StoreLook.Seen.present(shard.bytes(), "f".repeat(64)));
        GateEvaluator trusting = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/data")), tree, store,
                false);

        GateDecision decision = trusting.evaluate(GateEvaluatorTest.DATASET.toString(),
                new ReleaseEvidence(GateEvaluatorTest.DATASET.toString(), List.of(asset)));

        assertThat(decision.passed()).as("what stowage.gatekeeper.reread-at-decision=false gives up").isTrue();
        assertThat(store.read).isEmpty();
    }
}
