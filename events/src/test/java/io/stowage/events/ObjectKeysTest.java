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
