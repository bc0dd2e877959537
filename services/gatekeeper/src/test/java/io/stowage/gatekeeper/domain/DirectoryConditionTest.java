package io.stowage.gatekeeper.domain;

import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static io.stowage.gatekeeper.domain.GateEvaluatorTest.DATASET;
import static io.stowage.gatekeeper.domain.GateEvaluatorTest.MEMBERS;
import static io.stowage.gatekeeper.domain.GateEvaluatorTest.codes;
import static org.assertj.core.api.Assertions.assertThat;

/** Condition 5: the directory itself, protected roots, symlinks and the accounting of every file. */
class DirectoryConditionTest {
    final InMemoryTree tree = new InMemoryTree();
    final GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol/data/speech/a", " ", "/ws")), tree, TestStore.holdingEverything());
    final AssetEvidence dataset = EvidenceFixture.dataset(tree::file, DATASET, Path.of("/vol/staging/s"), MEMBERS);

    GateDecision evaluate(String dir) {
        return gate.evaluate(dir, new ReleaseEvidence(dir, List.of(dataset)));
    }

    @Test
    void anAncestorOfAProtectedRootIsRefusedBeforeItsFilesAreRead() {
        tree.file(DATASET.resolve("a/extra.wav"), "not archived");

        GateDecision decision = gate.evaluate("/vol/data/speech", new ReleaseEvidence("/vol/data/speech",
                List.of(dataset)));

        assertThat(codes(decision)).containsExactly("5:protected-root");
    }

    @Test
    void anExtraFileInAReleasableDirectoryIsUnaccountedAndNamed() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());
        tree.file(DATASET.resolve("a/extra.wav"), "not archived");

        GateDecision decision = unprotected.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(dataset)));

        assertThat(codes(decision)).containsExactly("5:unaccounted-file");
        assertThat(decision.failed().get(0).detail()).isEqualTo("file in no manifest of an asset: a/extra.wav");
    }

    @Test
    void aChangedFileWithTheSameNameAndSizeIsRefused() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());
        tree.file(DATASET.resolve("a/2.wav"), "TWO!");

        GateDecision decision = unprotected.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(dataset)));

        assertThat(codes(decision)).containsExactly("5:changed-file");
        assertThat(decision.failed().get(0).detail()).endsWith(": a/2.wav");
    }

    @Test
    void aSubdirectoryIsJudgedByItsOwnEntries() {
        GateDecision decision = evaluate("/vol/data/speech/b");
        assertThat(codes(decision)).containsExactly("5:not-a-directory");

        tree.file(DATASET.resolve("b/x"), "x");
        assertThat(codes(evaluate("/vol/data/speech/b"))).containsExactly("5:unaccounted-file");
    }

    @Test
    void rootIsAlwaysProtected() {
        assertThat(codes(evaluate("/"))).containsExactly("5:protected-root");
    }

    @Test
    void aConfiguredRootIsProtected() {
        assertThat(codes(evaluate("/vol/data/speech/a"))).containsExactly("5:protected-root");
    }

    @Test
    void anAncestorOfAConfiguredRootIsProtected() {
        assertThat(codes(evaluate("/vol/data"))).containsExactly("5:protected-root");
        assertThat(codes(evaluate("/vol"))).containsExactly("5:protected-root");
    }

    @Test
    void aPathThatIsNotNormalisedIsRefused() {
        assertThat(codes(evaluate("/vol/data/speech/../speech"))).containsExactly("5:not-normalised");
        assertThat(codes(evaluate("vol/data/speech"))).containsExactly("5:not-normalised");
    }

    @Test
    void aSymlinkUnderTheDirectoryIsRefused() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());
        tree.symlink(DATASET.resolve("a/link-to-etc"));

        GateDecision decision = unprotected.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(dataset)));

        assertThat(codes(decision)).containsExactly("5:symlink");
        assertThat(decision.failed().get(0).detail()).contains("a/link-to-etc");
    }

    @Test
    void aDirectoryReachedThroughASymlinkIsRefused() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());
        tree.resolvesTo(DATASET, Path.of("/mnt/elsewhere/speech"));

        GateDecision decision = unprotected.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(dataset)));

        assertThat(codes(decision)).containsExactly("5:symlink-in-path");
    }

    @Test
    void aSpecialFileIsRefused() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());
        tree.special(DATASET.resolve("fifo"));

        GateDecision decision = unprotected.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(dataset)));

        assertThat(codes(decision)).containsExactly("5:special-file");
    }

    @Test
    void aDirectoryTheLedgerKnowsNothingAboutIsRefused() {
        tree.file(Path.of("/vol/scratch/tmp/file"), "x");
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());

        GateDecision decision = unprotected.evaluate("/vol/scratch/tmp", new ReleaseEvidence("/vol/scratch/tmp", List.of()));

        assertThat(codes(decision)).containsExactly("5:no-assets", "5:unaccounted-file");
    }

    @Test
    void aMissingDirectoryIsRefused() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());

        assertThat(codes(unprotected.evaluate("/vol/gone", new ReleaseEvidence("/vol/gone", List.of(dataset)))))
                .containsExactly("5:not-a-directory");
    }

    @Test
    void theDetailNamesAtMostTenFilesThenCountsTheRest() {
        GateEvaluator unprotected = new GateEvaluator(TestPolicies.protecting(List.of()), tree, TestStore.holdingEverything());
        for (int i = 0; i < 12; i++) {
            tree.file(DATASET.resolve("extra-" + (char) ('a' + i)), "x");
        }

        GateDecision decision = unprotected.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(dataset)));

        assertThat(decision.failed()).hasSize(1);
        assertThat(decision.failed().get(0).detail()).isEqualTo("file in no manifest of an asset: "
                + "extra-a, extra-b, extra-c, extra-d, extra-e, extra-f, extra-g, extra-h, extra-i, extra-j and 2 more");
    }

    @Test
    void aFileAddedWhileTheGateHashesIsCaught() {
        InMemoryTree racing = new InMemoryTree() {
            @Override
            public String sha256(Path file) throws java.nio.file.NoSuchFileException {
                file(DATASET.resolve("late.bin"), "written during the gate");
                return super.sha256(file);
            }
        };
        AssetEvidence evidence = EvidenceFixture.dataset(racing::file, DATASET, Path.of("/vol/staging/s"), MEMBERS);
        GateEvaluator racingGate = new GateEvaluator(TestPolicies.protecting(List.of()), racing, TestStore.holdingEverything());

        GateDecision decision = racingGate.evaluate(DATASET.toString(),
                new ReleaseEvidence(DATASET.toString(), List.of(evidence)));

        assertThat(codes(decision)).containsExactly("5:changed-during-gate");
    }
}
