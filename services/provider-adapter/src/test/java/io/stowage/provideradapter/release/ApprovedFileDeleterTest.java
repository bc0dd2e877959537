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
    void deletesTheApprovedFilesAndKeepsLinksAsLinksNeverFollowed() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root");
        Path dir = Files.createDirectories(tmp.resolve("vol/dir/a/b"));
        Files.writeString(dir.resolve("f"), "x");
        Map<String, InventoryEntry> approved = approved(tmp.resolve("vol/dir"));
        Files.createSymbolicLink(dir.resolve("to-outside"), outside);
        Files.createSymbolicLink(tmp.resolve("vol/dir/to-file"), outside.resolve("passwd"));

        ApprovedFileDeleter.Sweep sweep = ApprovedFileDeleter.sweep(tmp.resolve("vol/dir"), approved);

        assertThat(sweep.kept()).containsExactly("symlink a/b/to-outside", "symlink to-file");
        assertThat(dir.resolve("f")).doesNotExist();
        assertThat(dir.resolve("to-outside")).isSymbolicLink();
        assertThat(outside.resolve("passwd")).hasContent("root");
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
