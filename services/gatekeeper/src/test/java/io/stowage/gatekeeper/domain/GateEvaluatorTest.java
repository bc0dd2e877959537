package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.FailedCondition;
import io.stowage.events.InventoryEntry;
import io.stowage.events.ObjectKind;
import io.stowage.events.Provenance;
import io.stowage.events.Sha256;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.stowage.gatekeeper.EvidenceFixture.withObjects;
import static io.stowage.gatekeeper.EvidenceFixture.withResults;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Conditions 1 to 4, each failing alone, and the passing decision, on an in-memory disk. */
class GateEvaluatorTest {
    static final Path DATASET = Path.of("/vol/data/speech");
    static final Path STEP = Path.of("/vol/ckpt/exp/run1/step-100");
    static final Map<String, String> MEMBERS = Map.of("a/1.wav", "one", "a/2.wav", "two!", "meta.txt", "m");

    final InMemoryTree tree = new InMemoryTree();
    final EvidenceFixture.Disk disk = tree::file;
    final GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/data")), tree, TestStore.holdingEverything());

    AssetEvidence dataset() {
        return EvidenceFixture.dataset(disk, DATASET, Path.of("/vol/staging/speech/r1"), MEMBERS);
    }

    AssetEvidence keyCheckpoint() {
        return EvidenceFixture.checkpoint(disk, STEP, Path.of("/vol/staging/checkpoints/exp/run1/100.json"),
                Map.of("model.bin", "weights", "provenance.json", "{}"), true);
    }

    GateDecision evaluate(Path dir, AssetEvidence... assets) {
        return gate.evaluate(dir.toString(), new ReleaseEvidence(dir.toString(), List.of(assets)));
    }

    static List<String> codes(GateDecision decision) {
        return decision.failed().stream().map(f -> f.condition() + ":" + f.code()).toList();
    }

    @Test
    void datasetWithEveryConditionPasses() {
        GateDecision decision = evaluate(DATASET, dataset());

        assertThat(decision.passed()).isTrue();
        assertThat(decision.assets()).containsExactly("dataset/speech/r1");
        assertThat(decision.fileCount()).isEqualTo(3);
        assertThat(decision.totalBytes()).isEqualTo(3 + 4 + 1);
        assertThat(decision.fingerprint()).isEqualTo(tree.fingerprint(DATASET));
    }

    @Test
    void keyCheckpointWithReplicaPasses() {
        GateDecision decision = evaluate(STEP, keyCheckpoint());

        assertThat(decision.failed()).isEmpty();
        assertThat(decision.assets()).containsExactly("checkpoint/exp/run1/000000000100");
        assertThat(decision.fileCount()).isEqualTo(2);
        assertThat(decision.totalBytes()).isEqualTo(7 + 2);
    }

    @Test
    void aPassingKeyCheckpointNamesTheEvidenceOfEachCondition() {
        AssetEvidence asset = keyCheckpoint();
        GateDecision decision = evaluate(STEP, asset);
        String model = primaryKey(asset, "model.bin");
        String provenance = primaryKey(asset, "provenance.json");
        String seal = "seal:checkpoint/exp/run1/000000000100";

        assertThat(decision.conditions()).extracting(ConditionResult::condition, ConditionResult::name,
                ConditionResult::passed).containsExactly(tuple(1, "objects-match", true), tuple(2, "full-read", true),
                tuple(3, "provenance", true), tuple(4, "second-copy", true), tuple(5, "directory", true));
        assertThat(decision.conditions().get(0).evidence()).containsExactlyInAnyOrder(seal,
                "up:primary:" + model, "head:primary:" + model, "up:primary:" + provenance, "head:primary:" + provenance);
        assertThat(decision.conditions().get(1).evidence()).containsExactly("full:primary:" + model);
        assertThat(decision.conditions().get(2).evidence()).containsExactly(seal);
        assertThat(decision.conditions().get(2).reason()).contains("code commit 0123abc");
        assertThat(decision.conditions().get(3).evidence()).containsExactlyInAnyOrder(
                "up:replica:" + model, "head:replica:" + model, "up:replica:" + provenance, "head:replica:" + provenance);
        assertThat(decision.conditions().get(4).evidence()).containsExactlyInAnyOrder(
                "up:primary:" + model, "head:primary:" + model, "up:primary:" + provenance, "head:primary:" + provenance);
        assertThat(decision.inventory().entries()).containsExactly(
                new InventoryEntry("model.bin", 7, Sha256.of("weights".getBytes(StandardCharsets.UTF_8))),
                new InventoryEntry("provenance.json", 2, Sha256.of("{}".getBytes(StandardCharsets.UTF_8))));
        assertThat(decision.inventory().digest()).isEqualTo(DirectoryInventory.digestOf(decision.inventory().entries()));
        assertThat(decision.conditions().get(4).reason()).contains("2 file(s), 9 bytes", decision.inventory().digest());
    }

    @Test
    void aDatasetsFilesAreProvedByTheirMemberManifestObject() {
        AssetEvidence asset = dataset();
        GateDecision decision = evaluate(DATASET, asset);
        String members = asset.objects().stream().filter(o -> o.kind() == ObjectKind.MEMBERS).findFirst().orElseThrow().key();
        String shard = asset.objects().stream().filter(o -> o.kind() == ObjectKind.SHARD).findFirst().orElseThrow().key();

        assertThat(decision.conditions().get(4).evidence()).containsExactly("head:primary:" + members, "up:primary:" + members);
        assertThat(decision.conditions().get(1).evidence()).containsExactly("full:primary:" + shard);
        assertThat(decision.conditions().get(3)).satisfies(c -> {
            assertThat(c.passed()).isTrue();
            assertThat(c.reason()).contains("no second copy required");
        });
    }

    @Test
    void aDenialSaysWhichConditionsFailedWithTheirEvidence() {
        AssetEvidence asset = withObjects(keyCheckpoint(), objects -> objects.stream()
                .map(o -> withResults(o, o.headResult(), null)).toList());
        tree.file(STEP.resolve("notes.txt"), "never archived");

        GateDecision decision = evaluate(STEP, asset);

        assertThat(decision.conditions()).extracting(ConditionResult::condition, ConditionResult::passed)
                .containsExactly(tuple(1, true), tuple(2, false), tuple(3, true), tuple(4, true), tuple(5, false));
        assertThat(decision.conditions().get(1).reason()).startsWith("no-full-read: ");
        assertThat(decision.conditions().get(4).reason()).contains("unaccounted-file", "notes.txt");
        assertThat(decision.conditions().get(2).evidence()).containsExactly("seal:checkpoint/exp/run1/000000000100");
        assertThat(decision.inventory()).isNull();
        assertThat(decision.assets()).as("a denial still names the assets it examined")
                .containsExactly("checkpoint/exp/run1/000000000100");
    }

    @Test
    void withoutAnyAssetConditionsOneToFourFailForWantOfEvidence() {
        tree.file(DATASET.resolve("x.bin"), "x");

        GateDecision decision = evaluate(DATASET);

        assertThat(decision.conditions()).extracting(ConditionResult::passed).containsOnly(false);
        assertThat(decision.conditions().get(0).reason()).contains("no asset");
    }

    static String primaryKey(AssetEvidence asset, String fileName) {
        return asset.objects().stream().filter(o -> o.store().equals("primary") && o.key().endsWith("/" + fileName))
                .findFirst().orElseThrow().key();
    }

    @Test
    void condition1FailsAloneWhenThePrimaryManifestObjectIsMissing() {
        AssetEvidence asset = withObjects(dataset(), objects -> objects.stream()
                .filter(o -> o.kind() != ObjectKind.DATASET_MANIFEST).toList());

        GateDecision decision = evaluate(DATASET, asset);

        assertThat(decision.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(1, "object-missing"));
        assertThat(decision.failed().get(0).detail()).contains("datasets/speech/r1/manifest.json");
    }

    @Test
    void condition1FailsAloneWhenAShardDiffersInSha256() {
        AssetEvidence asset = withObjects(dataset(), objects -> objects.stream()
                .map(o -> o.kind() == ObjectKind.SHARD ? EvidenceFixture.withSha256(o, "c".repeat(64)) : o).toList());

        assertThat(codes(evaluate(DATASET, asset))).containsExactly("1:object-mismatch");
    }

    @Test
    void condition1FailsWithBadEvidenceWhenTheNewestHeadIsNotOk() {
        AssetEvidence asset = withObjects(keyCheckpoint(), objects -> objects.stream()
                .map(o -> o.store().equals("primary") ? withResults(o, VerifyResult.MISSING, o.fullReadResult()) : o)
                .toList());

        assertThat(codes(evaluate(STEP, asset))).containsExactly("1:head-not-ok", "2:bad-evidence");
    }

    @Test
    void condition1FailsWhenTheLocalManifestChangedSinceItWasPublished() {
        AssetEvidence asset = EvidenceFixture.withManifestSha256(dataset(), "d".repeat(64));

        GateDecision decision = evaluate(DATASET, asset);

        // an untrusted manifest accounts for nothing, so the files are unaccounted too
        assertThat(codes(decision)).containsExactly("1:manifest-changed", "5:unaccounted-file");
    }

    @Test
    void condition1FailsWhenAMemberManifestChangedLocally() {
        AssetEvidence asset = dataset();
        Path members = Path.of(asset.objects().get(1).localPath());
        tree.file(members, "{\"path\":\"x\",\"bytes\":1,\"sha256\":\"" + "e".repeat(64) + "\"}\n");

        assertThat(codes(evaluate(DATASET, asset))).containsExactly("1:manifest-changed", "5:unaccounted-file");
    }

    @Test
    void condition2FailsAloneWithoutAFullReRead() {
        AssetEvidence asset = withObjects(dataset(), objects -> objects.stream()
                .map(o -> withResults(o, o.headResult(), null)).toList());

        GateDecision decision = evaluate(DATASET, asset);

        assertThat(codes(decision)).containsExactly("2:no-full-read");
        assertThat(decision.failed().get(0).detail()).contains("dataset/speech/r1");
    }

    @Test
    void condition3FailsAloneForADatasetWithoutLicenceAndSource() {
        AssetEvidence asset = EvidenceFixture.withMetadata(dataset(), null, " ", null);

        assertThat(codes(evaluate(DATASET, asset))).containsExactly("3:dataset-metadata-missing");
    }

    @Test
    void condition3HoldsForADatasetWithASourceButNoLicence() {
        AssetEvidence asset = EvidenceFixture.withMetadata(dataset(), null, "https://example.org", null);

        assertThat(evaluate(DATASET, asset).passed()).isTrue();
    }

    @Test
    void condition3FailsAloneForACheckpointMissingProvenance() {
        AssetEvidence asset = EvidenceFixture.withMetadata(keyCheckpoint(), null, null,
                new Provenance("0123abc", null, "b".repeat(64)));

        assertThat(codes(evaluate(STEP, asset))).containsExactly("3:provenance-missing");
    }

    @Test
    void condition4FailsAloneForAKeyCheckpointWithoutReplicaCopy() {
        AssetEvidence asset = withObjects(keyCheckpoint(), objects -> objects.stream()
                .filter(o -> !o.store().equals("replica")).toList());

        GateDecision decision = evaluate(STEP, asset);

        assertThat(codes(decision)).containsExactly("4:no-replica-copy");
        assertThat(decision.failed().get(0).detail()).contains("model.bin", "provenance.json");
    }

    @Test
    void condition4DoesNotApplyToAnOrdinaryCheckpoint() {
        AssetEvidence asset = EvidenceFixture.checkpoint(disk, STEP, Path.of("/vol/staging/c.json"),
                Map.of("model.bin", "weights"), false);

        assertThat(evaluate(STEP, asset).passed()).isTrue();
    }

    @Test
    void everyFailedConditionIsReportedTogether() {
        AssetEvidence asset = withObjects(EvidenceFixture.withMetadata(keyCheckpoint(), null, null, null),
                objects -> List.of());
        tree.file(STEP.resolve("extra.bin"), "x");

        Map<Integer, List<String>> byCondition = evaluate(STEP, asset).failed().stream().collect(
                Collectors.groupingBy(FailedCondition::condition, Collectors.mapping(FailedCondition::code,
                        Collectors.toList())));

        assertThat(byCondition).containsOnlyKeys(1, 2, 3, 4, 5);
        assertThat(byCondition.get(5)).containsExactly("unaccounted-file");
    }
}
