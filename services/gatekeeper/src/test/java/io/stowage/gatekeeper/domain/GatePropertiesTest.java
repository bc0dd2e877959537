package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.stowage.gatekeeper.EvidenceFixture.withMetadata;
import static io.stowage.gatekeeper.EvidenceFixture.withObjects;
import static io.stowage.gatekeeper.EvidenceFixture.withResults;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property: over random small directory trees (a dataset or a key checkpoint, 1 to 6 files at depth 0
 * to 2) and random faults injected into the ledger evidence or the directory (no full re-read, missing
 * metadata or provenance, no second copy, an extra unarchived file, a symlink, a stale ledger missing
 * an upload, a HEAD that is not OK), the gate passes exactly when no fault was injected, a denial names
 * exactly the checks of each injected fault, and the five condition results fail exactly for those.
 */
class GatePropertiesTest {
    static final Path DATASET = Path.of("/vol/data/speech");
    static final Path STEP = Path.of("/vol/ckpt/exp/run1/step-100");

    /** One generated case: the files, the asset kind and which faults to inject. */
    record Case(Map<String, String> files, boolean checkpoint, boolean dropFullRead, boolean dropMetadata,
                boolean dropReplica, boolean addUnarchived, boolean addSymlink, boolean staleLedger,
                boolean dropHead) {
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> dirs = Arbitraries.of("", "a/", "b/", "a/b/", "b/c/");
        Arbitrary<String> content = Arbitraries.strings().alpha().numeric().ofMinLength(0).ofMaxLength(40);
        Arbitrary<Map<String, String>> files = Combinators.combine(dirs.list().ofMinSize(1).ofMaxSize(6), content.list()
                .ofSize(6)).as((prefixes, contents) -> {
                    Map<String, String> tree = new TreeMap<>();
                    for (int i = 0; i < prefixes.size(); i++) {
                        tree.put(prefixes.get(i) + "f" + i + ".bin", contents.get(i));
                    }
                    return tree;
                });
        Arbitrary<Boolean> fault = Arbitraries.of(true, false, false, false);
        return Combinators.combine(files, Arbitraries.of(true, false), fault.list().ofSize(7)).as((tree, checkpoint, f) ->
                new Case(tree, checkpoint, f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), f.get(5), f.get(6)));
    }

    @Property(tries = 300)
    void theGatePassesExactlyWhenNoFaultWasInjected(@ForAll("cases") Case c) {
        InMemoryTree tree = new InMemoryTree();
        Path dir = c.checkpoint() ? STEP : DATASET;
        AssetEvidence asset = c.checkpoint()
                ? EvidenceFixture.checkpoint(tree::file, STEP, Path.of("/vol/staging/ckpt/100.json"), c.files(), true)
                : EvidenceFixture.dataset(tree::file, DATASET, Path.of("/vol/staging/speech/r1"), c.files());
        Set<String> expected = new HashSet<>();
        if (c.dropFullRead()) {
            asset = withObjects(asset, objects -> objects.stream().map(o -> withResults(o, o.headResult(), null)).toList());
            expected.add("2:no-full-read");
        }
        if (c.dropMetadata()) {
            asset = withMetadata(asset, null, null, null);
            expected.add(c.checkpoint() ? "3:provenance-missing" : "3:dataset-metadata-missing");
        }
        if (c.dropReplica() && c.checkpoint()) {
            asset = withObjects(asset, objects -> objects.stream().filter(o -> !o.store().equals("replica")).toList());
            expected.add("4:no-replica-copy");
        }
        if (c.addUnarchived()) {
            tree.file(dir.resolve("a/unarchived-notes.txt"), "not in any manifest");
            expected.add("5:unaccounted-file");
        }
        if (c.addSymlink()) {
            tree.symlink(dir.resolve("b/link-to-etc"));
            expected.add("5:symlink");
        }
        if (c.dropHead()) {
            asset = withObjects(asset, objects -> objects.stream().map(o -> o.store().equals("primary")
                    ? withResults(o, VerifyResult.MISSING, o.fullReadResult()) : o).toList());
            if (!(c.staleLedger() && c.checkpoint() && c.files().size() == 1)) {
                expected.add("1:head-not-ok"); // unless the stale ledger lacks the only primary object
                expected.add("2:bad-evidence"); // a MISSING HEAD is bad evidence whatever else was re-read
            }
        }
        if (c.staleLedger()) {
            // the ledger has not yet stored the upload of one data file (a checkpoint file or member manifest)
            ObjectEvidence dropped = asset.objects().stream().filter(o -> o.store().equals("primary")
                    && (o.kind() == ObjectKind.CHECKPOINT_FILE || o.kind() == ObjectKind.MEMBERS))
                    .max(java.util.Comparator.comparing(ObjectEvidence::key)).orElseThrow();
            asset = withObjects(asset, objects -> objects.stream()
                    .filter(o -> !(o.store().equals("primary") && o.key().equals(dropped.key()))).toList());
            expected.add("1:object-missing");
            if (!c.checkpoint()) {
                expected.add("5:unaccounted-file"); // without its member manifest's object, no file is accounted for
            }
            if (dropped.fullReadResult() == VerifyResult.OK) {
                expected.add("2:no-full-read"); // it was the asset's only re-read object
            }
        }
        GateEvaluator gate = new GateEvaluator(TestPolicies.protecting(List.of("/vol", "/vol/data")), tree, TestStore.holdingEverything());

        GateDecision decision = gate.evaluate(dir.toString(), new ReleaseEvidence(dir.toString(), List.of(asset)));

        assertThat(decision.passed()).as("%s -> %s", c, decision.failed()).isEqualTo(expected.isEmpty());
        assertThat(Set.copyOf(GateEvaluatorTest.codes(decision))).as("%s", c).isEqualTo(expected);
        // the five condition results agree with the failed checks: a condition fails exactly when one of its checks did
        Set<Integer> failedConditions = new HashSet<>();
        expected.forEach(code -> failedConditions.add(Integer.parseInt(code.substring(0, 1))));
        assertThat(decision.conditions()).extracting(ConditionResult::condition).containsExactly(1, 2, 3, 4, 5);
        decision.conditions().forEach(r -> assertThat(r.passed()).as("%s condition %d", c, r.condition())
                .isEqualTo(!failedConditions.contains(r.condition())));
        assertThat(decision.conditions().get(2).evidence()).contains(asset.sealedEventId());
        if (decision.passed()) {
            assertThat(decision.fileCount()).isEqualTo(c.files().size());
            assertThat(decision.fingerprint()).isEqualTo(tree.fingerprint(dir));
            assertThat(decision.inventory().entries()).extracting(e -> e.path()).containsExactlyElementsOf(
                    c.files().keySet().stream().sorted().toList());
            decision.conditions().stream().filter(r -> r.condition() != 4 || c.checkpoint())
                    .forEach(r -> assertThat(r.evidence()).as("evidence of %d", r.condition()).isNotEmpty());
        }
    }
}
