package io.stowage.shardformat.write;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Shards written on several threads are the sequential build's bytes, in its order; a failure stops the build cleanly. */
class ParallelShardsTest {
    @TempDir
    Path tmp;

    /** 40 files of 1–60 KiB of random bytes (seeded) in 8 directories. */
    static Path manyFiles(Path dir, long seed) throws IOException {
        Random random = new Random(seed);
        for (int i = 0; i < 40; i++) {
            byte[] content = new byte[1024 + random.nextInt(60 * 1024)];
            random.nextBytes(content);
            Path file = dir.resolve("part-" + (i % 8) + "/sample-" + String.format("%04d", i) + ".wav");
            Files.createDirectories(file.getParent());
            Files.write(file, content);
        }
        return dir;
    }

    private SealedDataset build(Path dir, String staging, int parallelism) throws IOException {
        return new DatasetSharder(new ShardWriter(0), parallelism).shard(new ShardRequest(dir, "speech", "r1",
                "CC-BY-SA-3.0", "test", 128 * 1024, tmp.resolve(staging)));
    }

    @Test
    void everyParallelismGivesTheSequentialShardsInTheSameOrder() throws IOException {
        Path dir = manyFiles(Files.createDirectories(tmp.resolve("data")), 5);

        SealedDataset sequential = build(dir, "staging-1", 1);
        List<String> expected = sequential.shards().stream().map(s -> s.shard().sha256()).toList();

        assertThat(expected).hasSizeGreaterThan(8).doesNotHaveDuplicates();
        for (int parallelism : new int[] {2, 3, 8, 64}) {
            SealedDataset parallel = build(dir, "staging-" + parallelism, parallelism);
            assertThat(parallel.shards()).extracting(s -> s.shard().sha256()).as("parallelism %d", parallelism)
                    .containsExactlyElementsOf(expected);
            assertThat(parallel.shards()).extracting(BuiltShard::index)
                    .containsExactlyElementsOf(sequential.shards().stream().map(BuiltShard::index).toList());
            assertThat(parallel.shards()).extracting(BuiltShard::entries)
                    .containsExactlyElementsOf(sequential.shards().stream().map(BuiltShard::entries).toList());
            assertThat(parallel.manifestFile().sha256()).isEqualTo(sequential.manifestFile().sha256());
            for (BuiltShard shard : parallel.shards()) {
                assertThat(Sha256.of(shard.shard().path())).isEqualTo(shard.shard().sha256());
            }
        }
        List<String> members = sequential.shards().stream().flatMap(s -> s.entries().stream())
                .map(MemberEntry::path).toList();
        assertThat(members).hasSize(40).isSorted();
    }

    @Test
    void aFileChangedDuringAParallelBuildFailsItAndLeavesNoTemporaryFile() throws IOException {
        Path dir = manyFiles(Files.createDirectories(tmp.resolve("data")), 6);
        List<ShardPlan> plans = new ShardPlanner(128 * 1024).plan(new DatasetScanner().scan(dir));
        assertThat(plans).hasSizeGreaterThan(4);
        Member changed = plans.get(3).members().get(0);
        Files.write(changed.file(), new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        Path shards = Files.createDirectories(tmp.resolve("shards"));

        assertThatThrownBy(() -> new ShardWrites(new ShardWriter(0), 4).writeAll(plans, shards))
                .isInstanceOf(MemberChangedException.class)
                .hasMessageEndingWith(changed.file() + " (its size changed)");
        try (var left = Files.list(shards)) {
            assertThat(left.map(p -> p.getFileName().toString()).toList())
                    .noneMatch(name -> name.endsWith(".tmp"))
                    .allMatch(name -> name.matches("[0-9a-f]{64}\\.(tar\\.zst|members\\.jsonl)"));
        }
    }

    @Test
    void refusesAParallelismBelowOne() {
        assertThatThrownBy(() -> new DatasetSharder(new ShardWriter(0), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parallelism must be at least 1: 0");
    }
}
