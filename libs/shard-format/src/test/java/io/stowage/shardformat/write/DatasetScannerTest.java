package io.stowage.shardformat.write;

import io.stowage.events.Sha256;
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
    void refusesAFileNameNoShardMayHoldAndNamesIt() throws IOException {
        file("ok/a.txt", 1);
        file("ok/b\\..\\c.txt", 1);

        assertThatThrownBy(() -> new DatasetScanner().scan(dir))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("only regular files can be sharded; the dataset directory also holds: "
                        + dir.resolve("ok/b\\..\\c.txt") + " (a name no shard may hold: it holds a backslash)");
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

    @Test
    void aFileHardLinkedFromOutsideIsRefusedInTheOneErrorWithTheOtherOffenders() throws Exception {
        Path dataset = Files.createDirectories(dir.resolve("dataset"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.write(outside.resolve("original.wav"), new byte[] {1, 2, 3});
        Files.createDirectories(dataset.resolve("sub"));
        Files.createLink(dataset.resolve("sub/borrowed.wav"), outside.resolve("original.wav"));
        Files.write(dataset.resolve("inside-a.wav"), new byte[] {4, 5});
        Files.createLink(dataset.resolve("inside-b.wav"), dataset.resolve("inside-a.wav"));
        Files.createSymbolicLink(dataset.resolve("link"), dataset.resolve("inside-a.wav"));
        SpecialFiles.fifo(dataset.resolve("sub/fifo"));

        assertThatThrownBy(() -> new DatasetScanner().scan(dataset))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("only regular files can be sharded; the dataset directory also holds: "
                        + dataset.resolve("link") + " (symlink), "
                        + dataset.resolve("sub/borrowed.wav") + " (hard link: 1 of its 2 links inside the dataset directory), "
                        + dataset.resolve("sub/fifo") + " (FIFO)");
    }

    @Test
    void aFileWithTwoOfItsThreeLinksInsideIsRefusedUnderBothNames() throws IOException {
        Path dataset = Files.createDirectories(dir.resolve("dataset"));
        Files.write(dataset.resolve("a.wav"), new byte[] {1});
        Files.createLink(dataset.resolve("b.wav"), dataset.resolve("a.wav"));
        Files.createLink(dir.resolve("elsewhere.wav"), dataset.resolve("a.wav"));

        assertThatThrownBy(() -> new DatasetScanner().scan(dataset))
                .hasMessage("only regular files can be sharded; the dataset directory also holds: "
                        + dataset.resolve("a.wav") + " (hard link: 2 of its 3 links inside the dataset directory), "
                        + dataset.resolve("b.wav") + " (hard link: 2 of its 3 links inside the dataset directory)");
    }

    @Test
    void hardLinksEntirelyInsideTheDirectoryBecomeOrdinaryFullMembers() throws IOException {
        Path dataset = Files.createDirectories(dir.resolve("dataset"));
        byte[] content = "the same inode under two names\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(dataset.resolve("a.txt"), content);
        Files.createDirectories(dataset.resolve("deeper"));
        Files.createLink(dataset.resolve("deeper/b.txt"), dataset.resolve("a.txt"));
        assertThat(Files.getAttribute(dataset.resolve("a.txt"), "unix:nlink")).isEqualTo(2);

        List<Member> members = new DatasetScanner().scan(dataset);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(members).get(0);
        BuiltShard shard = new ShardWriter(0).write(plan, Files.createDirectories(dir.resolve("shards")));

        assertThat(members).extracting(Member::path).containsExactly("a.txt", "deeper/b.txt");
        assertThat(ShardFiles.headers(shard.shard().path()))
                .allSatisfy(header -> {
                    assertThat(header.isFile()).isTrue();
                    assertThat(header.isLink()).isFalse();
                    assertThat(header.getSize()).isEqualTo(content.length);
                });
        assertThat(ShardFiles.members(shard.shard().path()).values()).containsExactly(content, content);
        assertThat(shard.entries()).extracting(e -> e.sha256())
                .containsOnly("%s".formatted(Sha256.of(content)));
    }
}
