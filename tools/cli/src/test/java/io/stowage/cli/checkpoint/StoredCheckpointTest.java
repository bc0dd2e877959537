package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoredCheckpointTest {
    private static final String P = "checkpoints/e/r/";
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    @Test
    void latestIsTheHighestStepAndOtherKeysAreIgnored() {
        List<String> keys = List.of(P + "000000000009/" + A + "/model.pt", P + "000000000010/" + B + "/model.pt",
                P + "000000000010/" + A + "/sub/opt.pt", P + "latest.json", "checkpoints/e/r2/000000000099/" + A + "/x");
        StoredCheckpoint latest = StoredCheckpoint.select(P, keys, null).orElseThrow();
        assertThat(latest.step()).isEqualTo(10);
        assertThat(latest.files()).extracting(StoredCheckpoint.StoredFile::path, StoredCheckpoint.StoredFile::sha256)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("model.pt", B), org.assertj.core.groups.Tuple.tuple("sub/opt.pt", A));
        assertThat(StoredCheckpoint.select(P, keys, 9L).orElseThrow().files()).singleElement()
                .extracting(StoredCheckpoint.StoredFile::key).isEqualTo(P + "000000000009/" + A + "/model.pt");
        assertThat(StoredCheckpoint.select(P, keys, 11L)).isEmpty();
        assertThat(StoredCheckpoint.select(P, keys, 5L)).isEmpty();
        assertThat(StoredCheckpoint.select(P, List.of(P + "latest.json"), null)).isEmpty();
    }

    @Test
    void anUnsafePathOrTwoObjectsForOnePathAreRefused() {
        assertThatThrownBy(() -> StoredCheckpoint.select(P, List.of(P + "000000000001/" + A + "/../../etc/passwd"), 1L))
                .isInstanceOf(CliException.class).hasMessageContaining("unsafe path");
        assertThatThrownBy(() -> StoredCheckpoint.select(P, List.of(P + "000000000001/" + A + "/m.pt",
                P + "000000000001/" + B + "/m.pt"), 1L))
                .isInstanceOf(CliException.class).hasMessageContaining("two objects for m.pt");
    }
}
