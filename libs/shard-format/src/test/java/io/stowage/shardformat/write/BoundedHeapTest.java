package io.stowage.shardformat.write;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A few GiB sharded in parallel in a child JVM limited to {@code -Xmx256m}: it succeeds, and its
 * shards are the ones a sequential build in this JVM makes. Heap use does not grow with the input
 * (buffers are per shard being written, see {@link ShardWrites}); the peak the child saw is printed,
 * no timing is asserted. The input is 3 files of 1 GiB (sparse, each with 8 MiB of random bytes at
 * the start) and 200 random files of 64 KiB.
 */
@Tag("large-input")
class BoundedHeapTest {
    static final long GIB = 1L << 30;

    @TempDir
    Path tmp;

    private static Path input(Path dir) throws IOException {
        Random random = new Random(7);
        byte[] head = new byte[8 << 20];
        for (int i = 0; i < 3; i++) {
            random.nextBytes(head);
            try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("big-" + i + ".bin").toFile(), "rw")) {
                raf.setLength(GIB);
                raf.write(head);
            }
        }
        Path small = Files.createDirectories(dir.resolve("small"));
        byte[] content = new byte[64 << 10];
        for (int i = 0; i < 200; i++) {
            random.nextBytes(content);
            Files.write(small.resolve(String.format("s-%03d.bin", i)), content);
        }
        return dir;
    }

    @Test
    void aChildJvmWith256MiBOfHeapShardsThreeGiBInParallelToTheSequentialBytes() throws Exception {
        Path dir = input(Files.createDirectories(tmp.resolve("data")));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ShardBuildProbe.class.getName(), dir.toString(), tmp.resolve("staging-child").toString(),
                String.valueOf(GIB)).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(20, TimeUnit.MINUTES)).isTrue();
        System.out.println("[BoundedHeapTest] child output:\n" + output);

        assertThat(child.exitValue()).as(output).isZero();
        SealedDataset sequential = new DatasetSharder(new ShardWriter(0), 1).shard(new ShardRequest(dir, "probe", "r1",
                "CC0-1.0", "generated", GIB, tmp.resolve("staging-sequential")));
        List<String> expected = new ArrayList<>();
        for (BuiltShard shard : sequential.shards()) {
            expected.add("shard " + shard.index() + " " + shard.shard().sha256() + " " + shard.shard().bytes());
        }
        assertThat(expected).hasSize(4);
        assertThat(sequential.shards().get(0).entries()).singleElement()
                .satisfies(e -> assertThat(e.bytes()).isEqualTo(GIB));
        assertThat(output.lines().filter(l -> l.startsWith("shard ")).toList()).containsExactlyElementsOf(expected);
        long maxHeap = Long.parseLong(line(output, "max-heap "));
        assertThat(maxHeap).isLessThanOrEqualTo(256L << 20);
        assertThat(Long.parseLong(line(output, "peak-heap "))).isPositive().isLessThanOrEqualTo(maxHeap);
    }

    private static String line(String output, String prefix) {
        return output.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length());
    }
}
