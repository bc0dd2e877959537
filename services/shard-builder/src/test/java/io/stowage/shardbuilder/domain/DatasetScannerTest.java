package io.stowage.shardbuilder.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetScannerTest {
    @TempDir
    Path dir;

    private void file(String path, int bytes) throws IOException {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[bytes]);
    }

    @Test
    void listsRegularFilesSortedByRelativePathInJavaStringOrder() throws IOException {
        file("a/b", 3);
        file("a.txt", 1);
        file("B", 0);
        file("a/a/z", 2);
        Files.createDirectories(dir.resolve("empty/dir"));

        List<Member> members = new DatasetScanner().scan(dir);

        // '.' (0x2E) sorts before '/' (0x2F), upper case before lower case
        assertThat(members).extracting(Member::path).containsExactly("B", "a.txt", "a/a/z", "a/b");
        assertThat(members).extracting(Member::bytes).containsExactly(0L, 1L, 2L, 3L);
        assertThat(members.get(3).file()).isEqualTo(dir.resolve("a/b"));
    }

    @Test
    void refusesASymlinkAndNamesIt() throws IOException {
        file("real", 1);
        Files.createSymbolicLink(dir.resolve("sub-link"), dir.resolve("real"));

        assertThatThrownBy(() -> new DatasetScanner().scan(dir))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("only regular files can be sharded; the dataset directory also holds: "
                        + dir.resolve("sub-link") + " (symlink)");
    }

    @Test
    void refusesASymlinkToADirectory() throws IOException {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.write(outside.resolve("x"), new byte[1]);
        Path dataset = Files.createDirectories(dir.resolve("dataset"));
        Files.createSymbolicLink(dataset.resolve("linked"), outside);

        assertThatThrownBy(() -> new DatasetScanner().scan(dataset))
                .isInstanceOf(DatasetInputException.class)
                .hasMessageContaining(dataset.resolve("linked").toString());
    }

    @Test
    void refusesAMissingDirectoryInOneLine() {
        assertThatThrownBy(() -> new DatasetScanner().scan(dir.resolve("nope")))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("the dataset directory does not exist: " + dir.resolve("nope"));
    }

    @Test
    void refusesAFileAndASymlinkInsteadOfADirectory() throws IOException {
        file("plain", 1);
        Files.createSymbolicLink(dir.resolve("link"), Files.createDirectories(dir.resolve("target")));

        assertThatThrownBy(() -> new DatasetScanner().scan(dir.resolve("plain")))
                .hasMessage("not a directory: " + dir.resolve("plain"));
        assertThatThrownBy(() -> new DatasetScanner().scan(dir.resolve("link")))
                .hasMessage("the dataset directory is a symlink: " + dir.resolve("link"));
    }

    @Test
    void oneErrorListsEverySymlinkFifoSocketAndDevice() throws Exception {
        file("a-real.wav", 1);
        file("sub/b-real.wav", 1);
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("a-real.wav"));
        SpecialFiles.fifo(dir.resolve("sub/fifo"));
        try (var socket = SpecialFiles.socket(dir.resolve("sock"))) {
            boolean device = SpecialFiles.characterDevice(dir.resolve("sub/null"));
            String expected = "only regular files can be sharded; the dataset directory also holds: "
                    + dir.resolve("link") + " (symlink), "
                    + dir.resolve("sock") + " (socket), "
                    + dir.resolve("sub/fifo") + " (FIFO)"
                    + (device ? ", " + dir.resolve("sub/null") + " (character device)" : "");

            assertThatThrownBy(() -> new DatasetScanner().scan(dir))
                    .isInstanceOf(DatasetInputException.class)
                    .hasMessage(expected);
        }
    }

    @Test
    void recordsSizeAndModificationTimeAtScanTime() throws IOException {
        file("a.wav", 7);
        java.nio.file.attribute.FileTime time = java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_123L);
        Files.setLastModifiedTime(dir.resolve("a.wav"), time);

        Member member = new DatasetScanner().scan(dir).get(0);

        assertThat(member.bytes()).isEqualTo(7);
        assertThat(member.modified()).isEqualTo(time);
    }
}
