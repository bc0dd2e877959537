package io.stowage.shardformat.write;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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

    @Test
    void beforeTheLedgerKnowsTheStagedManifestSealsTheRevision() throws IOException {
        Path staging = Files.createDirectories(tmp.resolve("staging"));
        RevisionLookup ledgerNotYet = (d, r) -> RevisionState.unsealed();
        SealedDataset first = sharder().shard(request(dataset("one"), staging), ledgerNotYet);
        byte[] sealedBytes = Files.readAllBytes(first.manifestFile().path());

        assertThatThrownBy(() -> sharder().shard(request(dataset("two"), staging), ledgerNotYet))
                .isInstanceOf(RevisionSealedException.class)
                .hasMessageContaining("speech@r1 already has a manifest in staging")
                .hasMessageContaining(first.manifestFile().sha256());
        assertThat(Files.readAllBytes(first.manifestFile().path())).as("the first build's manifest stays").isEqualTo(sealedBytes);

        SealedDataset again = sharder().shard(request(dataset("one"), staging), ledgerNotYet);
        assertThat(again.alreadySealed()).as("the same content again, the ledger still without it: published again")
                .isFalse();
        assertThat(again.manifestFile().sha256()).isEqualTo(first.manifestFile().sha256());
    }

    @RepeatedTest(5)
    void ofTwoConcurrentBuildsWithOtherContentExactlyOneSealsTheRevision() throws Exception {
        Path staging = Files.createDirectories(tmp.resolve("staging"));
        Path one = dataset("one");
        Path two = dataset("two");
        CyclicBarrier bothAsked = new CyclicBarrier(2);
        RevisionLookup ledgerNotYet = (d, r) -> {
            try {
                bothAsked.await(10, TimeUnit.SECONDS); // both builds pass each ledger question before either writes
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return RevisionState.unsealed();
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<SealedDataset> a = pool.submit(() -> sharder().shard(request(one, staging), ledgerNotYet));
            Future<SealedDataset> b = pool.submit(() -> sharder().shard(request(two, staging), ledgerNotYet));
            List<SealedDataset> sealed = new ArrayList<>();
            List<Throwable> refused = new ArrayList<>();
            for (Future<SealedDataset> f : List.of(a, b)) {
                try {
                    sealed.add(f.get(60, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    refused.add(e.getCause());
                }
            }
            assertThat(sealed).hasSize(1);
            assertThat(refused).singleElement().isInstanceOf(RevisionSealedException.class);
            Path manifest = sealed.get(0).manifestFile().path();
            assertThat(io.stowage.events.Sha256.of(Files.readAllBytes(manifest)))
                    .as("the staged manifest is the winner's").isEqualTo(sealed.get(0).manifestFile().sha256());
            try (var left = Files.list(manifest.getParent())) {
                assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file left")
                        .noneMatch(n -> n.endsWith(".tmp"));
            }
        } finally {
            pool.shutdownNow();
        }
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
