package io.stowage.gatekeeper.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.stowage.gatekeeper.EvidenceFixture.withMetadata;
import static io.stowage.gatekeeper.EvidenceFixture.withObjects;
import static io.stowage.gatekeeper.EvidenceFixture.withResults;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A published model revision through the gate: it passes with licence and source and every file and the manifest
 * verified; condition 3 needs both licence and source; an unverified file, a missing manifest object, a changed or an
 * added file deny it.
 */
class ModelGateTest {
    static final Path MODEL = Path.of("/vol/models/en-us");
    static final Map<String, String> FILES = Map.of("en-us/mdef", "mdef bytes", "en-us.lm.bin", "lm", "README", "read me\n");

    final InMemoryTree tree = new InMemoryTree();
    final GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/models")), tree, TestStore.holdingEverything());

    AssetEvidence model() {
        return EvidenceFixture.model(tree::file, MODEL, Path.of("/vol/staging/models/en-us/r1/m.json"), FILES);
    }

    GateDecision evaluate(AssetEvidence asset) {
        return gate.evaluate(MODEL.toString(), new ReleaseEvidence(MODEL.toString(), List.of(asset)));
    }

    @Test
    void aVerifiedModelRevisionWithLicenceAndSourcePassesAndAccountsForEveryFile() {
        GateDecision decision = evaluate(model());

        assertThat(GateEvaluatorTest.codes(decision)).isEmpty();
        assertThat(decision.passed()).isTrue();
        assertThat(decision.assets()).containsExactly("model/en-us/r1");
        assertThat(decision.fileCount()).isEqualTo(3);
        assertThat(decision.totalBytes()).isEqualTo(10 + 2 + 8);
    }

    @Test
    void conditionThreeNeedsBothLicenceAndSource() {
        assertThat(GateEvaluatorTest.codes(evaluate(withMetadata(model(), null, "debian", null))))
                .containsExactly("3:model-metadata-missing");
        assertThat(GateEvaluatorTest.codes(evaluate(withMetadata(model(), "BSD-2-Clause", " ", null))))
                .containsExactly("3:model-metadata-missing");
    }

    @Test
    void aFileNotYetVerifiedOrAManifestNeverUploadedIsDenied() {
        AssetEvidence unverified = withObjects(model(), objects -> objects.stream()
                .map(o -> o.key().endsWith("/README") ? withResults(o, null, null) : o).toList());
        assertThat(GateEvaluatorTest.codes(evaluate(unverified))).containsExactly("1:head-not-ok");

        AssetEvidence noManifest = withObjects(model(), objects -> objects.stream()
                .filter(o -> o.kind() != ObjectKind.MODEL_MANIFEST).toList());
        assertThat(evaluate(noManifest).passed()).isFalse();

        AssetEvidence neverReRead = withObjects(model(), objects -> objects.stream()
                .map(o -> withResults(o, o.headResult(), null)).toList());
        assertThat(GateEvaluatorTest.codes(evaluate(neverReRead))).containsExactly("2:no-full-read");
    }

    @Test
    void aChangedOrAnAddedFileIsDenied() {
        AssetEvidence asset = model();
        tree.file(MODEL.resolve("en-us/mdef"), "other bytes".getBytes(StandardCharsets.UTF_8));
        tree.file(MODEL.resolve("notes.txt"), "later\n".getBytes(StandardCharsets.UTF_8));

        assertThat(GateEvaluatorTest.codes(evaluate(asset))).containsExactlyInAnyOrder("5:changed-file", "5:unaccounted-file");
    }
}
