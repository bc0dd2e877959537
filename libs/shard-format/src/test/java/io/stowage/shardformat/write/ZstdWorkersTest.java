package io.stowage.shardformat.write;

import com.github.luben.zstd.ZstdOutputStream;
import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why shards are compressed single-threaded and parallelism comes from writing several shards at once
 * (docs/design/shards.md): zstd's multi-threaded mode gives the same bytes for any number of workers &ge; 1, but
 * not the bytes of the single-threaded mode (workers = 0), which every shard built so far has. This
 * pins both facts for the bundled zstd (zstd-jni), and that a shard is exactly level-3 single-threaded
 * zstd of its tar stream, one frame, with one flush before the frame's end (the stream chain flushes as
 * it closes): what another implementation must do to reproduce a shard bit for bit.
 */
class ZstdWorkersTest {
    @TempDir
    Path tmp;

    /** About 40 MiB of text-like bytes (seeded), more than one zstd job at level 3. */
    private static byte[] input() {
        Random random = new Random(3);
        String[] words = {"shard", "member", "manifest", "speech", "corpus", "ledger", "gate", "zstd", "tar"};
        StringBuilder text = new StringBuilder();
        while (text.length() < 40 << 20) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(1000)).append(' ');
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] compress(byte[] input, int workers) throws IOException {
        return compress(input, workers, false);
    }

    private static byte[] compress(byte[] input, int workers, boolean flushBeforeClose) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream zstd = new ZstdOutputStream(out, ShardWriter.ZSTD_LEVEL)) {
            zstd.setWorkers(workers);
            for (int offset = 0; offset < input.length; offset += 1 << 20) {
                zstd.write(input, offset, Math.min(1 << 20, input.length - offset));
            }
            if (flushBeforeClose) {
                zstd.flush();
            }
        }
        return out.toByteArray();
    }

    @Test
    void anyWorkerCountFromOneGivesTheSameBytesButNotTheSingleThreadedOnes() throws IOException {
        byte[] input = input();

        byte[] one = compress(input, 1);

        assertThat(Sha256.of(compress(input, 2))).isEqualTo(Sha256.of(one));
        assertThat(Sha256.of(compress(input, 4))).isEqualTo(Sha256.of(one));
        assertThat(Sha256.of(compress(input, 0))).isNotEqualTo(Sha256.of(one));
    }

    @Test
    void aShardIsLevel3SingleThreadedZstdOfItsTarStream() throws IOException {
        Path dir = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("data")), 12);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(new DatasetScanner().scan(dir)).get(0);
        BuiltShard shard = new ShardWriter(0).write(plan, Files.createDirectories(tmp.resolve("shards")));

        byte[] recompressed = compress(ShardFiles.tarBytes(shard.shard().path()), 0, true);

        assertThat(Sha256.of(recompressed)).isEqualTo(shard.shard().sha256());
    }
}
