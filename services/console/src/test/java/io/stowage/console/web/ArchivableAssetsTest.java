package io.stowage.console.web;

import io.stowage.console.domain.AssetName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class ArchivableAssetsTest {
    @Test
    void eachRunIsAskedOnceAndEachDatasetRevisionOnceUnderTheirArchivedAssetIds() {
        List<AssetName> names = List.of(AssetName.parse("dataset/speech/r1").orElseThrow(),
                AssetName.parse("dataset/speech/r2").orElseThrow(), AssetName.parse("checkpoint/exp/run-1/50").orElseThrow(),
                AssetName.parse("checkpoint/exp/run-1/100").orElseThrow(), AssetName.parse("checkpoint/exp/run-2/50").orElseThrow());
        assertThat(AuditResource.archivable(names))
                .containsExactly("dataset/speech/r1", "dataset/speech/r2", "run/exp/run-1", "run/exp/run-2");
    }

    @Test
    void theLedgerIsAskedAboutAtMostTheLimit() {
        List<AssetName> names = IntStream.range(0, AuditResource.MAX_ASSETS + 10)
                .mapToObj(i -> AssetName.parse("checkpoint/exp/run-" + i + "/1").orElseThrow()).toList();
        assertThat(AuditResource.archivable(names)).hasSize(AuditResource.MAX_ASSETS);
    }
}
