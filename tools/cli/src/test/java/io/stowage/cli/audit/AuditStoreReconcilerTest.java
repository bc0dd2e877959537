package io.stowage.cli.audit;

import io.stowage.cli.audit.AuditStoreFinding.Problem;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The merge of the ledger's and the bucket's sorted object lists, and the report's summary line. */
class AuditStoreReconcilerTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    @Test
    void agreeingSidesGiveNoFinding() {
        List<AuditStoreEntry> both = List.of(entry("k/1", 10, A), entry("k/2", 20, B));
        assertThat(AuditStoreReconciler.reconcile(both, both)).isEmpty();
        assertThat(AuditStoreReconciler.reconcile(List.of(), List.of())).isEmpty();
    }

    @Test
    void namesMissingUnknownSizeAndShaInKeyOrder() {
        List<AuditStoreEntry> ledger = List.of(entry("a", 1, A), entry("c", 3, A), entry("d", 4, A), entry("f", 6, A));
        List<AuditStoreEntry> store = List.of(entry("b", 2, A), entry("c", 30, A), entry("d", 4, B), entry("f", 6, null),
                entry("g", 7, A));

        assertThat(AuditStoreReconciler.reconcile(ledger, store)).containsExactly(
                new AuditStoreFinding(Problem.MISSING, "a", null, null),
                new AuditStoreFinding(Problem.UNKNOWN, "b", null, null),
                new AuditStoreFinding(Problem.SIZE, "c", "3", "30"),
                new AuditStoreFinding(Problem.SHA256, "d", A, B),
                new AuditStoreFinding(Problem.SHA256, "f", A, "none"),
                new AuditStoreFinding(Problem.UNKNOWN, "g", null, null));
    }

    @Test
    void aRunsLatestPointerIsNotUnknownButAnyOtherUntrackedKeyIs() {
        List<AuditStoreEntry> store = List.of(entry("checkpoints/e1/r1/latest.json", 90, null),
                entry("checkpoints/e1/r1/step-1/latest.json", 9, A), entry("checkpoints/e1/r1/sub/latest.json", 90, null));

        assertThat(AuditStoreReconciler.reconcile(List.of(), store)).extracting(AuditStoreFinding::key)
                .containsExactly("checkpoints/e1/r1/step-1/latest.json", "checkpoints/e1/r1/sub/latest.json");
        assertThat(AuditStoreReconciler.isRunPointer("checkpoints//r1/latest.json")).isFalse();
        assertThat(AuditStoreReconciler.isRunPointer("datasets/e1/r1/latest.json")).isFalse();
    }

    @Test
    void theStorageRootManifestIsNotUnknownButAnotherManifestIs() {
        List<AuditStoreEntry> store = List.of(entry("manifests/storage-root-v1.json", 1531, A),
                entry("manifests/storage-root-v2.json", 10, A));
        assertThat(AuditStoreReconciler.reconcile(List.of(), store)).extracting(AuditStoreFinding::key)
                .containsExactly("manifests/storage-root-v2.json");
    }

    @Test
    void sizeAndShaCanBothDisagreeOnOneKey() {
        assertThat(AuditStoreReconciler.reconcile(List.of(entry("k", 5, A)), List.of(entry("k", 6, B))))
                .extracting(AuditStoreFinding::problem).containsExactly(Problem.SIZE, Problem.SHA256);
    }

    @Test
    void aLedgerWithoutShaComparesSizeOnlyAndCaseOfHexDoesNotMatter() {
        assertThat(AuditStoreReconciler.reconcile(List.of(entry("k", 5, null)), List.of(entry("k", 5, B)))).isEmpty();
        assertThat(AuditStoreReconciler.reconcile(List.of(entry("k", 5, "AB")), List.of(entry("k", 5, "ab")))).isEmpty();
    }

    @Test
    void oneSideEmptyMakesEveryObjectMissingOrUnknown() {
        List<AuditStoreEntry> two = List.of(entry("x", 1, A), entry("y", 2, A));
        assertThat(AuditStoreReconciler.reconcile(two, List.of())).extracting(AuditStoreFinding::problem)
                .containsExactly(Problem.MISSING, Problem.MISSING);
        assertThat(AuditStoreReconciler.reconcile(List.of(), two)).extracting(AuditStoreFinding::key)
                .containsExactly("x", "y");
    }

    @Test
    void refusesUnsortedOrDuplicateKeys() {
        assertThatThrownBy(() -> AuditStoreReconciler.reconcile(List.of(entry("b", 1, A), entry("a", 1, A)), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ledger").hasMessageContaining("a");
        assertThatThrownBy(() -> AuditStoreReconciler.reconcile(List.of(), List.of(entry("a", 1, A), entry("a", 1, A))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("store");
    }

    @Test
    void reportSummarisesAndFindingsReadAsLines() {
        List<AuditStoreFinding> findings = AuditStoreReconciler.reconcile(
                List.of(entry("a", 1, A), entry("c", 3, A)), List.of(entry("b", 2, A), entry("c", 4, B)));
        AuditStoreReport report = new AuditStoreReport("primary", "stowage-primary", 2, 3, findings);

        assertThat(report.clean()).isFalse();
        assertThat(report.summary()).isEqualTo("primary: 2 objects in the bucket, 3 in the ledger: 1 missing from the bucket,"
                + " 1 unknown to the ledger, 2 disagree");
        assertThat(findings).extracting(f -> f.line("primary")).containsExactly(
                "primary: missing from the store: a",
                "primary: unknown to the ledger: b",
                "primary: size disagrees for c: ledger 3 bytes, store 4 bytes",
                "primary: sha256 disagrees for c: ledger " + A + ", store " + B);
        assertThat(new AuditStoreReport("primary", "p", 3, 2, List.of(), 2).summary()).startsWith("primary: 3 objects in"
                + " the bucket (2 of them run pointers or the storage root manifest, not in the ledger), 2 in the ledger:");
        assertThat(AuditStoreReconciler.uncompared("checkpoints/e/r/latest.json")).isTrue();
        assertThat(AuditStoreReconciler.uncompared("checkpoints/e/r/000000000001/" + A + "/latest.json")).isFalse();
        assertThat(new AuditStoreReport("replica", "r", 0, 0, List.of()).summary())
                .isEqualTo("replica: 0 objects in the bucket, 0 in the ledger: 0 missing from the bucket, 0 unknown to"
                        + " the ledger, 0 disagree");
    }

    private static AuditStoreEntry entry(String key, long bytes, String sha256) {
        return new AuditStoreEntry(key, bytes, sha256);
    }
}
