package io.stowage.gatekeeper.storage;

import io.stowage.events.Sha256;
import io.stowage.gatekeeper.domain.LocalTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A FIFO (made by {@code mkfifo}, no writer ever) where the gate expects a regular file: the hash is refused or given up
 * within its bound, never waited on; on the real disk.
 */
class RegularFileHashTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    @TempDir
    Path tmp;

    @Test
    void aFifoSwappedInForAFileHashedAheadIsASpecialFileNotAHang() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("vol/step"));
        Path file = Files.writeString(step.resolve("model.bin"), "weights");
        FileSystemTree disk = new FileSystemTree(Duration.ofMillis(500));
        try (HashAheadTree tree = HashAheadTree.start(disk, step.toString(), d -> true)) {
            assertThat(tree.sha256(file)).isEqualTo(Sha256.of("weights".getBytes(StandardCharsets.UTF_8)));
            Files.delete(file);
            mkfifo(file); // its stamp changed: the tree hashes it again, now

            LocalTree.NotRegularFileException e = assertTimeoutPreemptively(BOUND,
                    () -> catchThrowableOfType(LocalTree.NotRegularFileException.class, () -> tree.sha256(file)));
            assertThat(e).hasMessage(file + " is a FIFO, socket or device, not a regular file");
        }
        assertTimeoutPreemptively(BOUND, () -> assertThat(catchThrowableOfType(LocalTree.NotRegularFileException.class,
                () -> disk.sha256(file))).isNotNull());
    }

    @Test
    void anOpenOfAFifoSwappedInAfterTheTypeCheckIsGivenUpAfterTheBound() throws Exception {
        Path fifo = tmp.resolve("pipe");
        mkfifo(fifo);

        long started = System.nanoTime();
        IOException e = assertTimeoutPreemptively(BOUND, () -> catchThrowableOfType(IOException.class,
                () -> RegularFileHash.openAndRead(fifo, 10, Duration.ofMillis(300))));
        assertThat(e).hasMessage(fifo + ": no progress opening or reading it for 300 ms (a FIFO or device swapped in?);"
                + " given up");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aRegularFileIsHashedAndADeviceIsRefused() throws Exception {
        Path file = Files.write(tmp.resolve("a.bin"), new byte[3 << 20]);
        assertThat(new FileSystemTree().sha256(file)).isEqualTo(Sha256.of(new byte[3 << 20]));
        assertThat(catchThrowableOfType(LocalTree.NotRegularFileException.class,
                () -> new FileSystemTree().sha256(Path.of("/dev/zero")))).isNotNull();
        assertThat(catchThrowableOfType(IOException.class, () -> RegularFileHash.openAndRead(Path.of("/dev/zero"), 10,
                Duration.ofSeconds(5)))).hasMessageContaining("more than the 10 bytes");
    }

    @Test
    void aManifestIsReadWholeAndAFifoInItsPlaceIsRefusedAtOnce() throws Exception {
        FileSystemTree disk = new FileSystemTree(Duration.ofMillis(500));
        byte[] manifest = new byte[(1 << 20) + 17];
        new java.util.Random(7).nextBytes(manifest);
        Path file = Files.write(tmp.resolve("manifest.json"), manifest);
        assertThat(disk.read(file)).isEqualTo(manifest);
        assertThat(disk.read(file)).as("read again through the kept buffer").isEqualTo(manifest);

        Path fifo = tmp.resolve("members.jsonl");
        mkfifo(fifo);
        assertThat(assertTimeoutPreemptively(BOUND, () -> catchThrowableOfType(LocalTree.NotRegularFileException.class,
                () -> disk.read(fifo)))).hasMessage(fifo + " is a FIFO, socket or device, not a regular file");
    }

    static void mkfifo(Path path) throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        assumeTrue(mkfifo.waitFor() == 0 && Files.readAttributes(path, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isOther(), "mkfifo is not available on this machine");
    }
}
