package io.stowage.gatekeeper.storage;

import io.stowage.events.Sha256;
import io.stowage.gatekeeper.domain.LocalTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Hashes taken while the ledger is asked are used only for files that did not change since; on the real disk. */
class HashAheadTreeTest {
    @TempDir
    Path tmp;

    /** The real disk, counting the hashes computed (each counted once it is done). */
    private static final class Counting implements LocalTree {
        final FileSystemTree disk = new FileSystemTree();
        final AtomicInteger hashes = new AtomicInteger();

        @Override
        public String sha256(Path file) throws IOException {
            String sha256 = disk.sha256(file);
            hashes.incrementAndGet();
            return sha256;
        }

        @Override
        public EntryType typeOf(Path path) {
            return disk.typeOf(path);
        }

        @Override
        public Path realPath(Path path) throws IOException {
            return disk.realPath(path);
        }

        @Override
        public java.util.List<Entry> list(Path dir) throws IOException {
            return disk.list(dir);
        }

        @Override
        public String fingerprint(Path dir) throws IOException {
            return disk.fingerprint(dir);
        }

        @Override
        public byte[] read(Path file) throws IOException {
            return disk.read(file);
        }
    }

    @Test
    void everyFileIsHashedOnceAndTheGateGetsTheSameHashes() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("vol/step/a"));
        Files.writeString(dir.resolve("1.bin"), "one");
        Files.writeString(tmp.resolve("vol/step/2.bin"), "two");
        Counting disk = new Counting();

        try (HashAheadTree tree = HashAheadTree.start(disk, tmp.resolve("vol/step").toString(), d -> true)) {
            assertThat(tree.aheadCount()).isEqualTo(2);
            assertThat(tree.sha256(dir.resolve("1.bin"))).isEqualTo(Sha256.of("one".getBytes(StandardCharsets.UTF_8)));
            assertThat(tree.sha256(tmp.resolve("vol/step/2.bin"))).isEqualTo(Sha256.of("two".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(disk.hashes.get()).isEqualTo(2);
    }

    @Test
    void aFileRewrittenAfterItsHashWithItsModificationTimeSetBackIsHashedAgain() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("vol/step"));
        Path file = Files.writeString(step.resolve("model.bin"), "weights");
        FileTime mtime = Files.getLastModifiedTime(file);
        Counting disk = new Counting();

        try (HashAheadTree tree = HashAheadTree.start(disk, step.toString(), d -> true)) {
            awaitHashed(disk, 1);
            Thread.sleep(20); // past the coarse clock's tick, so that the write moves the status-change time
            Files.writeString(file, "WEIGHTS");
            Files.setLastModifiedTime(file, mtime);

            assertThat(tree.sha256(file)).isEqualTo(Sha256.of("WEIGHTS".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(disk.hashes.get()).isEqualTo(2);
    }

    @Test
    void nothingIsReadAheadForAPathThePolicyRefusesOrOneReachedThroughASymlink() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("vol/step"));
        Files.writeString(step.resolve("x"), "x");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("vol"));
        Counting disk = new Counting();

        try (HashAheadTree refused = HashAheadTree.start(disk, step.toString(), d -> false);
             HashAheadTree linked = HashAheadTree.start(disk, link.resolve("step").toString(), d -> true);
             HashAheadTree relative = HashAheadTree.start(disk, "vol/step", d -> true);
             HashAheadTree dotted = HashAheadTree.start(disk, step + "/../step", d -> true)) {
            assertThat(refused.aheadCount()).isZero();
            assertThat(linked.aheadCount()).isZero();
            assertThat(relative.aheadCount()).isZero();
            assertThat(dotted.aheadCount()).isZero();
            assertThat(refused.sha256(step.resolve("x"))).isEqualTo(Sha256.of("x".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(disk.hashes.get()).isEqualTo(1);
    }

    @Test
    void aFileAddedAfterTheStartIsHashedWhenAsked() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("vol/step"));
        Files.writeString(step.resolve("a"), "a");
        try (HashAheadTree tree = HashAheadTree.start(new FileSystemTree(), step.toString(), d -> true)) {
            Path late = Files.writeString(step.resolve("late"), "late");
            assertThat(tree.aheadCount()).isEqualTo(1);
            assertThat(tree.sha256(late)).isEqualTo(Sha256.of("late".getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static void awaitHashed(Counting disk, int count) throws InterruptedException {
        for (int i = 0; i < 200 && disk.hashes.get() < count; i++) {
            Thread.sleep(10);
        }
        Thread.sleep(100); // the stamp after the read
    }
}
