package io.stowage.prefetch;

import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectReader;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DatasetFetcher} and {@link ShardCache} against the stack's real S3Proxy: bytes and hashes of fetched shards,
 * resume after an interrupted fetch (GETs counted), a corrupt object retried once then reported with no file kept,
 * a wire fault healed by the retry, and the byte limit checked before any GET.
 */
@ExtendWith(StowageStackExtension.class)
class DatasetFetcherTest {
    private static S3ObjectStore store;
    private static S3ObjectReader s3;
    @TempDir
    Path work;

    @BeforeAll
    static void connect(StackEndpoints stack) {
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        store = new S3ObjectStore(config, UploadTuning.defaults());
        s3 = new S3ObjectReader(config, ReadTuning.defaults(), HttpBackend.APACHE);
    }

    @AfterAll
    static void close() {
        s3.close();
        store.close();
    }

    private StoredDataset dataset(int shards) throws IOException {
        return StoredDataset.upload(store, work.resolve("upload"), "ds-" + UUID.randomUUID(), "r1", shards, 3,
                100_000, 42);
    }

    @Test
    void fetchesEveryShardWithTheUploadedBytesAndHashOneGetEach() throws IOException {
        StoredDataset data = dataset(5);
        CountingReader reader = new CountingReader(s3);
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            FetchReport report = new DatasetFetcher(reader, cache, 3).fetchAll(data.manifest().dataset(), "r1",
                    FetchListener.NONE);

            long total = data.shardBytes().values().stream().mapToLong(b -> b.length).sum();
            assertThat(report).extracting(FetchReport::shards, FetchReport::fetched, FetchReport::cached,
                    FetchReport::retried, FetchReport::bytesDownloaded, FetchReport::shardBytes)
                    .containsExactly(5, 5, 0, 0, total, total);
            assertThat(report.failures()).isEmpty();
            for (ShardEntry shard : data.manifest().shards()) {
                Path file = work.resolve("cache/shards/" + shard.sha256() + ".tar.zst");
                assertThat(Files.readAllBytes(file)).isEqualTo(data.shardBytes().get(shard.sha256()));
                assertThat(Sha256.of(file)).isEqualTo(shard.sha256());
                assertThat(reader.gets(shard.key())).isEqualTo(1);
            }
            assertThat(cache.usedBytes()).isEqualTo(total);
            assertThat(partialFiles()).isEmpty();
        }
    }

    @Test
    void anInterruptedFetchResumesWithoutReadingVerifiedShardsAgain() throws IOException {
        StoredDataset data = dataset(6);
        AtomicInteger done = new AtomicInteger();
        FetchListener killAfterTwo = new FetchListener() {
            @Override
            public void shardFetched(ShardEntry shard, int attempts) {
                if (done.incrementAndGet() == 2) {
                    throw new IllegalStateException("simulated kill after the second verified shard");
                }
            }
        };
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            DatasetFetcher first = new DatasetFetcher(new CountingReader(s3), cache, 1);
            assertThatThrownBy(() -> first.fetchAll(data.manifest(), killAfterTwo))
                    .hasMessage("simulated kill after the second verified shard");
        }
        assertThat(shardFiles()).hasSize(2);
        // a partial download a killed process would leave behind: removed when the cache is opened, never renamed
        Files.write(work.resolve("cache/.stowage-cache/partial/" + data.shard(2).sha256() + ".1.9.part"), new byte[]{1, 2});

        CountingReader second = new CountingReader(s3);
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            FetchReport report = new DatasetFetcher(second, cache, 2).fetchAll(data.manifest(), FetchListener.NONE);
            assertThat(report).extracting(FetchReport::cached, FetchReport::fetched).containsExactly(2, 4);
            assertThat(second.getsEndingWith(".tar.zst")).as("GETs of shards in the resumed run").isEqualTo(4);
            assertThat(second.gets(data.shard(0).key())).isZero();
            assertThat(second.gets(data.shard(1).key())).isZero();
        }
        assertThat(shardFiles()).hasSize(6);
        for (int i = 0; i < 6; i++) {
            assertThat(Files.readAllBytes(work.resolve("cache/shards/" + data.shard(i).sha256() + ".tar.zst")))
                    .isEqualTo(data.bytes(i));
        }
        assertThat(partialFiles()).isEmpty();
    }

    @Test
    void aFetchWhoseThreadIsInterruptedStopsWithoutPartialFilesAndResumes() throws Exception {
        StoredDataset data = dataset(6);
        Path dir = work.resolve("cache");
        java.util.concurrent.atomic.AtomicReference<Thread> fetching = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> outcome = new java.util.concurrent.atomic.AtomicReference<>();
        AtomicInteger done = new AtomicInteger();
        FetchListener interruptAfterTwo = new FetchListener() {
            @Override
            public void shardFetched(ShardEntry shard, int attempts) {
                if (done.incrementAndGet() == 2) {
                    fetching.get().interrupt(); // what a training process's shutdown (or Ctrl-C handler) does
                }
            }
        };
        Thread thread = new Thread(() -> {
            try (ShardCache cache = ShardCache.open(dir, 1L << 30)) {
                new DatasetFetcher(s3, cache, 1).fetchAll(data.manifest(), interruptAfterTwo);
                outcome.set(new AssertionError("the fetch was not interrupted"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        fetching.set(thread);
        thread.start();
        thread.join(120_000);

        assertThat(outcome.get()).isInstanceOf(java.io.InterruptedIOException.class);
        assertThat(partialFiles()).as("no partial download stays after an interrupt").isEmpty();
        int kept = shardFiles().size();
        assertThat(kept).as("shards verified before the interrupt took effect").isBetween(2, 5);

        CountingReader second = new CountingReader(s3);
        try (ShardCache cache = ShardCache.open(dir, 1L << 30)) {
            FetchReport report = new DatasetFetcher(second, cache, 2).fetchAll(data.manifest(), FetchListener.NONE);
            assertThat(report).extracting(FetchReport::cached, FetchReport::fetched).containsExactly(kept, 6 - kept);
            assertThat(second.getsEndingWith(".tar.zst")).isEqualTo(6 - kept);
        }
        for (int i = 0; i < 6; i++) {
            assertThat(Files.readAllBytes(dir.resolve("shards/" + data.shard(i).sha256() + ".tar.zst")))
                    .isEqualTo(data.bytes(i));
        }
    }

    @Test
    void aCorruptObjectIsRetriedOnceThenReportedAndNeverKept() throws IOException {
        StoredDataset data = dataset(3);
        ShardEntry bad = data.shard(1);
        byte[] wrong = data.bytes(1).clone();
        wrong[wrong.length / 2] ^= 0x40; // same size, one bit off: only the SHA-256 can tell
        StoredDataset.put(store, work.resolve("upload"), bad.key(), wrong);
        CountingReader reader = new CountingReader(s3);
        List<ShardFailure> reported = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            FetchReport report = new DatasetFetcher(reader, cache, 2).fetchAll(data.manifest(), new FetchListener() {
                @Override
                public void shardFailed(ShardFailure failure) {
                    reported.add(failure);
                }
            });

            ShardFailure expected = new ShardFailure(1, bad.key(), bad.sha256(), 2, "SHA-256 mismatch: got "
                    + Sha256.of(wrong) + ", the dataset manifest names " + bad.sha256());
            assertThat(report.failures()).containsExactly(expected);
            assertThat(reported).containsExactly(expected);
            assertThat(report.complete()).isFalse();
            assertThat(report.fetched()).isEqualTo(2);
            assertThat(reader.gets(bad.key())).isEqualTo(2);
            assertThat(cache.contains(bad.sha256(), bad.bytes())).isFalse();
            assertThat(cache.usedBytes()).isEqualTo(data.bytes(0).length + data.bytes(2).length);
        }
        assertThat(work.resolve("cache/shards/" + bad.sha256() + ".tar.zst")).doesNotExist();
        assertThat(shardFiles()).hasSize(2);
        assertThat(partialFiles()).isEmpty();
    }

    @Test
    void aShardMissingFromTheStoreIsTriedTwiceThenReported() throws IOException {
        StoredDataset data = dataset(2);
        String missingKey = ObjectKeys.shard(data.manifest().dataset(), "r1", "f".repeat(64));
        ShardEntry real = data.shard(1);
        ShardEntry missing = new ShardEntry(1, missingKey, real.bytes(), real.sha256(), real.membersKey(),
                real.membersBytes(), real.membersSha256(), real.memberCount());
        io.stowage.events.manifest.DatasetManifest manifest = new io.stowage.events.manifest.DatasetManifest(
                data.manifest().format(), data.manifest().dataset(), "r1", "CC0-1.0", "test", 0, 0,
                List.of(data.shard(0), missing));
        CountingReader reader = new CountingReader(s3);
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            FetchReport report = new DatasetFetcher(reader, cache, 2).fetchAll(manifest, FetchListener.NONE);
            assertThat(report.fetched()).isEqualTo(1);
            assertThat(report.failures()).singleElement().satisfies(f -> {
                assertThat(f.key()).isEqualTo(missingKey);
                assertThat(f.attempts()).isEqualTo(2);
                assertThat(f.reason()).startsWith("ObjectNotFoundException: ");
            });
            assertThat(reader.gets(missingKey)).isEqualTo(2);
            assertThat(cache.usedBytes()).isEqualTo(data.bytes(0).length);
        }
        assertThat(work.resolve("cache/shards/" + real.sha256() + ".tar.zst")).doesNotExist();
        assertThat(partialFiles()).isEmpty();
    }

    @Test
    void aFaultOnTheFirstReadIsHealedByTheRetry() throws IOException {
        StoredDataset data = dataset(2);
        CountingReader reader = new CountingReader(s3);
        reader.corruptFirstRead(data.shard(0).key());
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            FetchReport report = new DatasetFetcher(reader, cache, 2).fetchAll(data.manifest(), FetchListener.NONE);
            assertThat(report).extracting(FetchReport::fetched, FetchReport::retried).containsExactly(2, 1);
            assertThat(report.failures()).isEmpty();
            assertThat(reader.gets(data.shard(0).key())).isEqualTo(2);
            assertThat(report.bytesDownloaded()).isEqualTo(2L * data.bytes(0).length + data.bytes(1).length);
        }
        assertThat(Files.readAllBytes(work.resolve("cache/shards/" + data.shard(0).sha256() + ".tar.zst")))
                .isEqualTo(data.bytes(0));
        assertThat(partialFiles()).isEmpty();
    }

    @Test
    void aRevisionLargerThanTheCacheLimitIsRefusedBeforeAnyGet() throws IOException {
        StoredDataset data = dataset(3);
        long total = data.shardBytes().values().stream().mapToLong(b -> b.length).sum();
        CountingReader reader = new CountingReader(s3);
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), total - 1)) {
            assertThatThrownBy(() -> new DatasetFetcher(reader, cache, 2).fetchAll(data.manifest(), FetchListener.NONE))
                    .isInstanceOf(CacheFullException.class)
                    .hasMessage(data.manifest().dataset() + "@r1 has " + total + " bytes of shards, more than the cache"
                            + " limit of " + (total - 1) + " bytes");
        }
        assertThat(reader.getsEndingWith(".tar.zst")).isZero();
        assertThat(shardFiles()).isEmpty();
    }

    @Test
    void aMissingManifestIsOneLineNamingTheKey() throws IOException {
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), 1L << 30)) {
            assertThatThrownBy(() -> new DatasetFetcher(s3, cache, 1).manifest("no-such-dataset", "r9"))
                    .isInstanceOf(ManifestException.class)
                    .hasMessage("no dataset manifest at " + ObjectKeys.datasetManifest("no-such-dataset", "r9")
                            + " in the primary store");
        }
    }

    private List<Path> shardFiles() throws IOException {
        try (Stream<Path> files = Files.list(work.resolve("cache/shards"))) {
            return files.toList();
        }
    }

    private List<Path> partialFiles() throws IOException {
        try (Stream<Path> files = Files.list(work.resolve("cache/.stowage-cache/partial"))) {
            return files.toList();
        }
    }
}
