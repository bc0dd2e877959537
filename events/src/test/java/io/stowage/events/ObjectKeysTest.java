package io.stowage.events;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ObjectKeysTest {
    private static final String SHA = "a".repeat(64);

    @Test
    void datasetKeysFollowTheDesignLayout() {
        assertThat(ObjectKeys.shard("speech", "r1", SHA)).isEqualTo("datasets/speech/r1/shards/" + SHA + ".tar.zst");
        assertThat(ObjectKeys.members("speech", "r1", SHA)).isEqualTo("datasets/speech/r1/shards/" + SHA + ".members.jsonl");
        assertThat(ObjectKeys.datasetManifest("speech", "r1")).isEqualTo("datasets/speech/r1/manifest.json");
    }

    @Test
    void baselineArchiveKeysAndAssetIdFollowTheDesignLayout() {
        assertThat(ObjectKeys.baselineArchive("whisper-tiny", "baseline-1", SHA))
                .isEqualTo("archives/baselines/whisper-tiny/baseline-1/" + SHA + ".tar.zst");
        assertThat(ObjectKeys.baselineMembers("whisper-tiny", "baseline-1", SHA))
                .isEqualTo("archives/baselines/whisper-tiny/baseline-1/" + SHA + ".members.jsonl");
        assertThat(AssetIds.baseline("whisper-tiny", "baseline-1")).isEqualTo("baseline/whisper-tiny/baseline-1");
    }

    @Test
    void checkpointStepsAreZeroPaddedSoLexicalOrderIsNumericOrder() {
        String step9 = ObjectKeys.checkpointFile("exp", "run-1", 9, SHA, "model.pt");
        String step10 = ObjectKeys.checkpointFile("exp", "run-1", 10, SHA, "model.pt");
        assertThat(step9).isEqualTo("checkpoints/exp/run-1/000000000009/" + SHA + "/model.pt");
        assertThat(step9.compareTo(step10)).isNegative();
        assertThat(ObjectKeys.checkpointLatest("exp", "run-1")).isEqualTo("checkpoints/exp/run-1/latest.json");
    }

    @Test
    void refusesNamesWithSpacesNonAsciiOrDotSegments() {
        assertThatThrownBy(() -> ObjectKeys.datasetManifest("my data", "r1"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("dataset 'my data'");
        assertThatThrownBy(() -> ObjectKeys.datasetManifest("données", "r1"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("ASCII");
        assertThatThrownBy(() -> ObjectKeys.checkpointFile("e", "r", 1, SHA, "../escape"))
                .isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> ObjectKeys.shard("d", "r", "ABC")).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> ObjectKeys.paddedStep(-1)).isInstanceOf(InvalidEventException.class);
    }

    /** The issue's examples, in every user-supplied field of every key kind; each message is one line. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"a+b", "a b", "x//y", "/lead", "naïve café", "100%", "",
            ".", "..", "tab\there", "a\\b"})
    void refusesTheIssuesBadNamesInEveryField(String bad) {
        java.util.List<org.junit.jupiter.api.function.Executable> uses = java.util.List.of(
                () -> ObjectKeys.shard(bad, "r1", SHA), () -> ObjectKeys.shard("d", bad, SHA),
                () -> ObjectKeys.members(bad, "r1", SHA), () -> ObjectKeys.datasetManifest("d", bad),
                () -> ObjectKeys.modelFile(bad, "r", SHA, "f"), () -> ObjectKeys.modelFile("m", bad, SHA, "f"),
                () -> ObjectKeys.modelFile("m", "r", SHA, bad),
                () -> ObjectKeys.checkpointFile(bad, "run", 1, SHA, "model.pt"),
                () -> ObjectKeys.checkpointFile("exp", bad, 1, SHA, "model.pt"),
                () -> ObjectKeys.checkpointFile("exp", "run", 1, SHA, bad),
                () -> ObjectKeys.checkpointLatest(bad, "run"), () -> ObjectKeys.checkpointLatest("exp", bad),
                () -> ObjectKeys.baselineArchive(bad, "m1", SHA), () -> ObjectKeys.baselineArchive("m", bad, SHA),
                () -> ObjectKeys.baselineMembers(bad, "m1", SHA), () -> ObjectKeys.baselineMembers("m", bad, SHA),
                () -> AssetIds.baseline(bad, "m1"), () -> AssetIds.baseline("m", bad),
                () -> AssetIds.dataset(bad, "r1"), () -> AssetIds.checkpoint("exp", bad, 1));
        for (org.junit.jupiter.api.function.Executable use : uses) {
            assertThatThrownBy(use::execute).isInstanceOf(InvalidEventException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\t")
                            .contains("use only ASCII letters, digits, '.', '_' and '-'"));
        }
        assertThat(Validation.isSegment(bad)).isFalse();
    }

    @Test
    void theMessageNamesTheFieldTheValueAndTheFirstBadCharacter() {
        assertThatThrownBy(() -> ObjectKeys.checkpointLatest("a+b", "run")).hasMessage(
                "experiment 'a+b' is not a valid name: use only ASCII letters, digits, '.', '_' and '-' ('+' (U+002B) is not allowed)");
        assertThatThrownBy(() -> ObjectKeys.checkpointLatest("exp", "naïve café")).hasMessageContaining(
                "run 'naïve café' is not a valid name: use only ASCII letters, digits, '.', '_' and '-' ('ï' (U+00EF) is not allowed)");
        assertThatThrownBy(() -> ObjectKeys.checkpointFile("e", "r", 1, SHA, "x//y")).hasMessageContaining(
                "checkpoint file name '' is not a valid name: use only ASCII letters, digits, '.', '_' and '-' (it is empty)");
        assertThatThrownBy(() -> ObjectKeys.datasetManifest("100%", "r")).hasMessageContaining("'%' (U+0025)");
        assertThatThrownBy(() -> ObjectKeys.datasetManifest("d", "x".repeat(201))).hasMessageContaining(
                "201 characters long, longer than 200");
    }

    @Test
    void acceptsDotsDashesUnderscoresDigitsAndLongNamesUpToTheKeyLimit() {
        String longName = "L".repeat(200);
        assertThat(ObjectKeys.checkpointFile("exp.v2_final-1", "run-007_a.b", 123, SHA, "sub.dir/model_v1.2-final.pt"))
                .isEqualTo("checkpoints/exp.v2_final-1/run-007_a.b/000000000123/" + SHA + "/sub.dir/model_v1.2-final.pt");
        assertThat(ObjectKeys.checkpointFile(longName, longName, 1, SHA, longName)).hasSize(12 + 201 + 201 + 13 + 65 + 200);
        assertThat(ObjectKeys.datasetManifest("...a", "-_-")).isEqualTo("datasets/...a/-_-/manifest.json");
        assertThatThrownBy(() -> ObjectKeys.checkpointFile(longName, longName, 1, SHA, String.join("/", longName, longName, longName)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("longer than S3's 1024");
    }

    @Test
    void aLedgerArchiveKeyIsBoundedLikeEveryOtherKey() {
        String longName = "L".repeat(200);
        String assetId = String.join("/", "run", longName, longName, longName, longName, longName);
        assertThatThrownBy(() -> ObjectKeys.ledgerArchive(assetId, SHA))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("longer than S3's 1024");
        assertThat(ObjectKeys.ledgerArchive("run/e/r", SHA)).isEqualTo("ledger/archives/run/e/r/" + SHA + ".jsonl.zst");
    }

    @Test
    void assetIdsAreTheKafkaKeys() {
        assertThat(AssetIds.dataset("speech", "r1")).isEqualTo("dataset/speech/r1");
        assertThat(AssetIds.checkpoint("exp", "run", 42)).isEqualTo("checkpoint/exp/run/000000000042");
        assertThat(AssetIds.kindOf("checkpoint/exp/run/000000000042")).isEqualTo("checkpoint");
    }

    @Test
    void aMilestoneArchiveIsKeyedByTheArchivedAssetAndItsSha256() {
        assertThat(ObjectKeys.ledgerArchive(AssetIds.run("exp", "run-1"), SHA))
                .isEqualTo("ledger/archives/run/exp/run-1/" + SHA + ".jsonl.zst");
        assertThat(ObjectKeys.ledgerArchive(AssetIds.dataset("speech", "r1"), SHA))
                .isEqualTo("ledger/archives/dataset/speech/r1/" + SHA + ".jsonl.zst");
        assertThat(AssetIds.archive("run/exp/run-1")).isEqualTo("archive/run/exp/run-1");
        assertThatThrownBy(() -> ObjectKeys.ledgerArchive("run/../x", SHA)).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> ObjectKeys.ledgerArchive("run/exp/run-1", "abc")).isInstanceOf(InvalidEventException.class);
    }
}
