package io.stowage.provideradapter.release;

import io.stowage.events.DirectoryInventory;
import io.stowage.events.InventoryEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The deletion of the approved files on a real temporary directory: never through a symlink, whether one is
 * already (or suddenly) where a file, a subdirectory or a path component was.
 */
class ApprovedFileDeleterTest {
    @TempDir
    Path tmp;

    static Map<String, InventoryEntry> approved(Path dir) throws IOException {
        Map<String, InventoryEntry> byPath = new HashMap<>();
        DirectoryInventory.take(dir).entries().forEach(e -> byPath.put(e.path(), e));
        return byPath;
    }

    @Test
    void aLinkAddedUnderTheTreeStopsTheDeletionAndIsNeverFollowed() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root");
        Path dir = Files.createDirectories(tmp.resolve("vol/dir/a/b"));
        Files.writeString(dir.resolve("f"), "x");
        Map<String, InventoryEntry> approved = approved(tmp.resolve("vol/dir"));
        Files.createSymbolicLink(dir.resolve("to-outside"), outside);
        Files.createSymbolicLink(tmp.resolve("vol/dir/to-file"), outside.resolve("passwd"));

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(tmp.resolve("vol/dir"), approved);

        assertThat(sweep.kept()).containsExactly("symlink a/b/to-outside", "symlink to-file");
        assertThat(sweep.deletedNone()).isTrue();
        assertThat(dir.resolve("f")).as("all or none: an entry that is not approved keeps every file").hasContent("x");
        assertThat(dir.resolve("to-outside")).isSymbolicLink();
        assertThat(outside.resolve("passwd")).hasContent("root");
    }

    @Test
    void deletesEveryApprovedFileAndTheTreeWhenAllMatch() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("vol/dir/a/b"));
        Files.writeString(dir.resolve("f"), "x");
        Files.writeString(tmp.resolve("vol/dir/g"), "y");
        Map<String, InventoryEntry> approved = approved(tmp.resolve("vol/dir"));

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(tmp.resolve("vol/dir"), approved);

        assertThat(sweep.kept()).isEmpty();
        assertThat(sweep.deletedNone()).isFalse();
        assertThat(tmp.resolve("vol/dir")).doesNotExist();
        assertThat(tmp.resolve("vol")).isDirectory();
    }

    @Test
    void aFileRewrittenWithItsSizeAndModificationTimeKeptStopsTheDeletion() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("vol/dir"));
        Files.writeString(dir.resolve("a"), "one");
        Files.writeString(dir.resolve("b"), "two");
        Map<String, InventoryEntry> approved = approved(dir);
        java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(dir.resolve("b"));
        Files.writeString(dir.resolve("b"), "TWO");
        Files.setLastModifiedTime(dir.resolve("b"), mtime);

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(dir, approved);

        assertThat(sweep.kept()).singleElement().asString().startsWith("changed b (bytes 3->3, sha256 ");
        assertThat(sweep.deletedNone()).isTrue();
        assertThat(dir.resolve("a")).hasContent("one");
        assertThat(dir.resolve("b")).hasContent("TWO");
    }

    @Test
    void aFileRewrittenAfterItWasReadIsKeptEvenWithItsModificationTimeSetBack() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("vol/dir"));
        Files.writeString(dir.resolve("a"), "one");
        Files.writeString(dir.resolve("b"), "two");
        Map<String, InventoryEntry> approved = approved(dir);

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(dir, approved, () -> {
            java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(dir.resolve("b"));
            sleepPastTheClockTick();
            Files.writeString(dir.resolve("b"), "TWO");
            Files.setLastModifiedTime(dir.resolve("b"), mtime); // only the status-change time tells now
        });

        assertThat(sweep.kept()).containsExactly("changed after it was read b");
        assertThat(dir.resolve("a")).doesNotExist();
        assertThat(dir.resolve("b")).hasContent("TWO");
    }

    @Test
    void aFileSwappedForAnotherAfterItWasReadIsKept() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("vol/dir"));
        Files.writeString(dir.resolve("a"), "one");
        Files.writeString(dir.resolve("b"), "two");
        Map<String, InventoryEntry> approved = approved(dir);

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(dir, approved, () -> {
            Path other = Files.writeString(tmp.resolve("other"), "TWO");
            Files.setLastModifiedTime(other, Files.getLastModifiedTime(dir.resolve("b")));
            Files.move(other, dir.resolve("b"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        });

        assertThat(sweep.kept()).containsExactly("changed after it was read b");
        assertThat(dir.resolve("b")).hasContent("TWO");
    }

    /** The status-change time comes from a coarse clock: a change within the same tick may not move it. */
    private static void sleepPastTheClockTick() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aSubdirectorySwappedForASymlinkIsKeptAndWhatItPointsAtUntouched() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside/a"));
        Files.writeString(outside.resolve("f"), "x");
        Path dir = Files.createDirectories(tmp.resolve("vol/dir/a"));
        Files.writeString(dir.resolve("f"), "x");
        Map<String, InventoryEntry> approved = approved(tmp.resolve("vol/dir"));
        Files.delete(dir.resolve("f"));
        Files.delete(dir);
        Files.createSymbolicLink(dir, outside); // vol/dir/a -> outside/a, which holds an "approved" a/f

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(tmp.resolve("vol/dir"), approved);

        assertThat(sweep.kept()).containsExactly("symlink a");
        assertThat(outside.resolve("f")).hasContent("x");
    }

    @Test
    void aPathComponentThatIsASymlinkStopsItBeforeAnythingIsDeleted() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real/dir"));
        Files.writeString(real.resolve("f"), "x");
        Map<String, InventoryEntry> approved = approved(real);
        Files.createSymbolicLink(tmp.resolve("swapped"), tmp.resolve("real"));

        assertThatThrownBy(() -> ApprovedFileDeleter.sweep(tmp.resolve("swapped/dir"), approved))
                .isInstanceOf(IOException.class);

        assertThat(real.resolve("f")).hasContent("x");
        assertThat(tmp.resolve("swapped")).isSymbolicLink();
    }
}
