package io.stowage.provideradapter.release;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The deleter itself, without the provider's checks in front of it: what it does when a symlink is
 * already (or suddenly) where a file or a path component was.
 */
class SecureTreeDeleterTest {
    @TempDir
    Path tmp;

    @Test
    void deletesFilesDirectoriesAndLinksAsLinks() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root");
        Path dir = Files.createDirectories(tmp.resolve("vol/dir/a/b"));
        Files.writeString(dir.resolve("f"), "x");
        Files.createSymbolicLink(dir.resolve("to-outside"), outside);
        Files.createSymbolicLink(dir.resolve("to-file"), outside.resolve("passwd"));

        int deleted = SecureTreeDeleter.delete(tmp.resolve("vol/dir"));

        assertThat(deleted).isEqualTo(6);
        assertThat(tmp.resolve("vol/dir")).doesNotExist();
        assertThat(tmp.resolve("vol")).isDirectory();
        assertThat(outside.resolve("passwd")).hasContent("root");
    }

    @Test
    void aPathComponentThatIsASymlinkStopsItBeforeAnythingIsDeleted() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real/dir"));
        Files.writeString(real.resolve("f"), "x");
        Files.createSymbolicLink(tmp.resolve("swapped"), tmp.resolve("real"));

        assertThatThrownBy(() -> SecureTreeDeleter.delete(tmp.resolve("swapped/dir")))
                .isInstanceOf(IOException.class).hasMessageContaining("after 0 entries");
        assertThatThrownBy(() -> SecureTreeDeleter.delete(tmp.resolve("swapped")))
                .isInstanceOf(IOException.class).hasMessageContaining("after 0 entries");

        assertThat(real.resolve("f")).hasContent("x");
        assertThat(tmp.resolve("swapped")).isSymbolicLink();
    }
}
