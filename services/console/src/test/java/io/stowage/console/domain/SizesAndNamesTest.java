package io.stowage.console.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SizesAndNamesTest {
    @Test
    void bytesAreShownInBinaryUnits() {
        assertThat(Sizes.human(0)).isEqualTo("0 B");
        assertThat(Sizes.human(1023)).isEqualTo("1023 B");
        assertThat(Sizes.human(1024)).isEqualTo("1.0 KiB");
        assertThat(Sizes.human(5L * 1024 * 1024 * 1024 / 2)).isEqualTo("2.5 GiB");
    }

    @Test
    void assetIdsOfDatasetRevisionsAndCheckpointStepsAreParsedAndOthersAreNot() {
        AssetName dataset = AssetName.parse("dataset/speech/r1").orElseThrow();
        assertThat(dataset.dataset()).isTrue();
        assertThat(List.of(dataset.first(), dataset.second())).containsExactly("speech", "r1");
        assertThatThrownBy(dataset::step).isInstanceOf(IllegalStateException.class);

        AssetName step = AssetName.parse("checkpoint/digits/run-1/000000000150").orElseThrow();
        assertThat(step.dataset()).isFalse();
        assertThat(step.step()).isEqualTo(150);

        assertThat(AssetName.parse("model/speech/demo-1")).isEmpty();
        assertThat(AssetName.parse("checkpoint/e/r/latest")).isEmpty();
        assertThat(AssetName.parse("dataset/a/b/c")).isEmpty();
        assertThat(AssetName.parse(null)).isEmpty();
    }

    @Test
    void everyConditionHasWords() {
        for (int c = 1; c <= 5; c++) {
            assertThat(ConditionWords.of(c)).isNotBlank().doesNotStartWith("condition");
        }
        assertThat(ConditionWords.of(5)).contains("every file in the directory");
        assertThat(ConditionWords.of(0)).isEqualTo("condition 0");
    }
}
