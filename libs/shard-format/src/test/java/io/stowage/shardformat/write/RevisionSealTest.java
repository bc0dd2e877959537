package io.stowage.shardformat.write;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sealed revision never changes: {@link RevisionSeal} alone, then through {@link DatasetSharder} on real files. */
class RevisionSealTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    @TempDir
    Path tmp;

    @Test
    void anUnsealedRevisionIsNewTheSameManifestIsANoOpAnotherIsRefusedNamingTheRevision() {
        assertThat(RevisionSeal.decide("speech", "r1", RevisionState.unsealed(), A)).isEqualTo(RevisionSeal.Decision.NEW);
        assertThat(RevisionSeal.decide("speech", "r1", new RevisionState(true, A), A))
                .isEqualTo(RevisionSeal.Decision.ALREADY_SEALED);
        assertThatThrownBy(() -> RevisionSeal.decide("speech", "r1", new RevisionState(true, B), A))
                .isInstanceOf(RevisionSealedException.class)
                .hasMessage("dataset revision speech@r1 is already sealed with manifest sha256 " + B
                        + "; this content gives " + A + ": a sealed revision never changes, shard it as a new revision");
        assertThatThrownBy(() -> RevisionSeal.decide("speech", "r1", new RevisionState(true, null), A))
                .as("sealed without a recorded SHA-256: nothing to compare, so refused")
                .isInstanceOf(RevisionSealedException.class);
    }

    @Test
    void theSharderAsksTheLedgerBeforeBuildingAndAgainBeforeWritingTheManifest() throws IOException {
        Path dir = dataset("one");
        Path staging = Files.createDirectories(tmp.resolve("staging"));
        List<String> asked = new ArrayList<>();
        SealedDataset first = sharder().shard(request(dir, staging), (d, r) -> {
            asked.add(d + "@" + r);
            return RevisionState.unsealed();
        });
        assertThat(asked).containsExactly("speech@r1", "speech@r1");
        assertThat(first.alreadySealed()).isFalse();

        SealedDataset again = sharder().shard(request(dir, staging), (d, r) -> new RevisionState(true, first.manifestFile().sha256()));
        assertThat(again.alreadySealed()).isTrue();
        assertThat(again.manifestFile().sha256()).isEqualTo(first.manifestFile().sha256());
    }

    @Test
    void otherContentLeavesTheSealedLocalManifestAsItWas() throws IOException {
        Path staging = Files.createDirectories(tmp.resolve("staging"));
        SealedDataset first = sharder().shard(request(dataset("one"), staging), (d, r) -> RevisionState.unsealed());
        byte[] sealedBytes = Files.readAllBytes(first.manifestFile().path());

        assertThatThrownBy(() -> sharder().shard(request(dataset("two"), staging),
                (d, r) -> new RevisionState(true, first.manifestFile().sha256())))
                .isInstanceOf(RevisionSealedException.class).hasMessageContaining("speech@r1");
        assertThat(Files.readAllBytes(first.manifestFile().path())).isEqualTo(sealedBytes);
    }

    @Test
    void anUnreachableLedgerStopsTheBuildBeforeAByteIsWritten() throws IOException {
        Path staging = Files.createDirectories(tmp.resolve("staging"));
        assertThatThrownBy(() -> sharder().shard(request(dataset("one"), staging), (d, r) -> {
            throw new LedgerUnavailableException("cannot tell whether dataset revision " + d + "@" + r + " is already sealed");
        })).isInstanceOf(LedgerUnavailableException.class);
        assertThat(staging).isEmptyDirectory();
    }

    private static DatasetSharder sharder() {
        return new DatasetSharder(new ShardWriter(0), 1);
    }

    private static ShardRequest request(Path dir, Path staging) {
        return new ShardRequest(dir, "speech", "r1", "CC0-1.0", "test", 1 << 20, staging);
    }

    private Path dataset(String content) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data-" + content));
        Files.writeString(dir.resolve("a.txt"), content + "\n");
        return dir;
    }
}
