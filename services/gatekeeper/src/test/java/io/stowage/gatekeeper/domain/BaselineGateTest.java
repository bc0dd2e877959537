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

import static io.stowage.gatekeeper.EvidenceFixture.withObjects;
import static io.stowage.gatekeeper.EvidenceFixture.withResults;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hash-bound baseline archive through the gate: denied while its objects are uploaded but not verified,
 * passed once the archive was re-read in full and both objects' HEAD is OK; every file must be a member.
 */
class BaselineGateTest {
    static final Path RESULTS = Path.of("/vol/results/whisper-tiny");
    static final Map<String, String> MEMBERS = Map.of("eval/results.json", "{\"wer\": 0.125}\n", "config.yaml", "lr: 3e-4\n",
            "DONE", "");

    final InMemoryTree tree = new InMemoryTree();
    final GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/results")), tree, TestStore.holdingEverything());

    AssetEvidence baseline() {
        return EvidenceFixture.baseline(tree::file, RESULTS, Path.of("/vol/staging"), MEMBERS);
    }

    GateDecision evaluate(AssetEvidence asset) {
        return gate.evaluate(RESULTS.toString(), new ReleaseEvidence(RESULTS.toString(), List.of(asset)));
    }

    @Test
    void aVerifiedBaselineArchivePassesAndAccountsForEveryFile() {
        GateDecision decision = evaluate(baseline());

        assertThat(GateEvaluatorTest.codes(decision)).isEmpty();
        assertThat(decision.passed()).isTrue();
        assertThat(decision.assets()).containsExactly("baseline/whisper-tiny/baseline-1");
        assertThat(decision.fileCount()).isEqualTo(3);
        assertThat(decision.totalBytes()).isEqualTo(15 + 9 + 0);
    }

    @Test
    void uploadedButNotYetVerifiedIsDenied() {
        AssetEvidence unverified = withObjects(baseline(), objects -> objects.stream()
                .map(o -> withResults(o, null, null)).toList());

        GateDecision decision = evaluate(unverified);

        assertThat(decision.passed()).isFalse();
        String sha = baseline().objects().get(0).sha256();
        assertThat(decision.failed()).extracting(f -> f.condition() + ":" + f.code() + ":" + f.detail())
                .containsExactly("1:head-not-ok:newest HEAD of the primary object is not OK: archives/baselines/"
                                + "whisper-tiny/baseline-1/" + sha + ".tar.zst, archives/baselines/whisper-tiny/baseline-1/"
                                + sha + ".members.jsonl",
                        "2:no-full-read:no shard or checkpoint file was re-read in full with OK: baseline/whisper-tiny/baseline-1");
    }

    @Test
    void anArchiveWhoseFullReadIsMissingIsDeniedOnConditionTwoOnly() {
        AssetEvidence headOnly = withObjects(baseline(), objects -> objects.stream()
                .map(o -> o.kind() == ObjectKind.SHARD ? withResults(o, o.headResult(), null) : o).toList());

        assertThat(GateEvaluatorTest.codes(evaluate(headOnly))).containsExactly("2:no-full-read");
    }

    @Test
    void aFileAddedAfterArchivingIsUnaccountedAndAChangedOneIsChanged() {
        AssetEvidence asset = baseline();
        tree.file(RESULTS.resolve("notes.txt"), "later\n".getBytes(StandardCharsets.UTF_8));
        tree.file(RESULTS.resolve("config.yaml"), "lr: 1e-3\n".getBytes(StandardCharsets.UTF_8));

        assertThat(GateEvaluatorTest.codes(evaluate(asset))).containsExactlyInAnyOrder("5:unaccounted-file", "5:changed-file");
    }

    @Test
    void anEditedBaselineManifestIsNotTrusted() {
        AssetEvidence asset = baseline();
        tree.file(Path.of(asset.manifestPath()), "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(GateEvaluatorTest.codes(evaluate(asset))).contains("1:manifest-changed");
        assertThat(evaluate(asset).passed()).isFalse();
    }
}
