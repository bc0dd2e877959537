package io.stowage.prefetch;

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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The training-process API ({@link DatasetFetcher#open}) over a small {@link ShardCache} against the real S3Proxy:
 * least-recently-used eviction in the exact order, recency kept across a restart, a pinned shard never evicted
 * (even when it is the least recently used), and a full cache of pinned shards refused.
 */
@ExtendWith(StowageStackExtension.class)
class ShardCacheEvictionTest {
    private static S3ObjectStore store;
    private static S3ObjectReader s3;
    @TempDir
    Path work;
    private StoredDataset data;
    private long[] size;

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

    @BeforeEach
    void upload() throws IOException {
        data = StoredDataset.upload(store, work.resolve("upload"), "lru-" + UUID.randomUUID(), "r1", 4, 2, 150_000, 7);
        size = new long[4];
        for (int i = 0; i < 4; i++) {
            size[i] = data.shard(i).bytes();
        }
    }

    @Test
    void theLeastRecentlyUsedShardGoesFirstAndTheOrderSurvivesARestart() throws IOException {
        long limit = Math.max(size[0] + size[1] + size[2], size[0] + size[2] + size[3]);
        CountingReader reader = new CountingReader(s3);
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), limit)) {
            DatasetFetcher fetcher = new DatasetFetcher(reader, cache, 2);
            use(fetcher, 0);
            use(fetcher, 1);
            use(fetcher, 2);
            use(fetcher, 0); // 0 is used again: 1 is now the least recently used
            assertThat(cache.leastRecentFirst()).containsExactly(sha(1), sha(2), sha(0));

            use(fetcher, 3);

            assertThat(cache.cached()).containsExactlyInAnyOrder(sha(0), sha(2), sha(3));
            assertThat(cache.leastRecentFirst()).containsExactly(sha(2), sha(0), sha(3));
            assertThat(cache.usedBytes()).isEqualTo(size[0] + size[2] + size[3]);
            assertThat(reader.gets(data.shard(0).key())).as("the second use of shard 0 came from the cache").isEqualTo(1);
        }
        assertThat(work.resolve("cache/shards/" + sha(1) + ".tar.zst")).doesNotExist();
        try (ShardCache reopened = ShardCache.open(work.resolve("cache"), limit)) {
            assertThat(reopened.leastRecentFirst()).containsExactly(sha(2), sha(0), sha(3));
            assertThat(reopened.usedBytes()).isEqualTo(size[0] + size[2] + size[3]);
            assertThat(Files.readString(work.resolve("cache/.stowage-cache/recency.tsv")))
                    .isEqualTo(recencyFile());
        }
    }

    @Test
    void aPinnedShardIsNeverEvictedAndAFullCacheOfPinnedShardsIsRefused() throws IOException {
        long limit = Math.max(size[0] + size[1], size[0] + size[2]);
        try (ShardCache cache = ShardCache.open(work.resolve("cache"), limit)) {
            DatasetFetcher fetcher = new DatasetFetcher(s3, cache, 1);
            try (ShardLease training = fetcher.open(data.shard(0))) {
                use(fetcher, 1);
                assertThat(cache.leastRecentFirst()).containsExactly(sha(0), sha(1));

                try (ShardLease second = fetcher.open(data.shard(2))) {
                    assertThat(cache.cached()).as("1 evicted although 0 was used less recently: 0 is pinned")
                            .containsExactlyInAnyOrder(sha(0), sha(2));
                    assertThat(Files.readAllBytes(training.path())).isEqualTo(data.bytes(0));

                    assertThatThrownBy(() -> fetcher.open(data.shard(3)))
                            .isInstanceOf(CacheFullException.class)
                            .hasMessage("cannot make room for " + size[3] + " bytes within the cache limit of " + limit
                                    + " bytes (" + (size[0] + size[2]) + " cached, 0 being downloaded, 2 shard(s) pinned)");
                    assertThat(cache.cached()).containsExactlyInAnyOrder(sha(0), sha(2));
                }
            }
            assertThat(cache.pinned(sha(0))).isFalse();
            try (ShardLease third = fetcher.open(data.shard(3))) {
                assertThat(cache.cached()).as("0 is unpinned and least recently used now").containsExactlyInAnyOrder(
                        sha(2), sha(3));
                assertThat(Files.readAllBytes(third.path())).isEqualTo(data.bytes(3));
            }
        }
    }

    private void use(DatasetFetcher fetcher, int i) throws IOException {
        try (ShardLease lease = fetcher.open(data.shard(i))) {
            assertThat(Files.readAllBytes(lease.path())).isEqualTo(data.bytes(i));
        }
    }

    private String sha(int i) {
        ShardEntry shard = data.shard(i);
        return shard.sha256();
    }

    /** The recency file after the uses of the first test: one line per cached shard, sorted by SHA-256. */
    private String recencyFile() {
        // use numbers: each download and each pin is a use; 0 → 1,2; 1 → 3,4; 2 → 5,6; 0 again → 7; 3 → 8,9
        java.util.Map<String, Integer> use = new java.util.TreeMap<>();
        use.put(sha(0), 7);
        use.put(sha(2), 6);
        use.put(sha(3), 9);
        StringBuilder text = new StringBuilder();
        use.forEach((sha, n) -> text.append(sha).append('\t').append(n).append('\n'));
        return text.toString();
    }
}
