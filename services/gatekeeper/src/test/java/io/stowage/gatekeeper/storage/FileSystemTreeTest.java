package io.stowage.gatekeeper.storage;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.gatekeeper.domain.LocalTree;
import io.stowage.gatekeeper.domain.LocalTree.EntryType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The real-disk LocalTree on a temporary directory: no symlink is followed. */
class FileSystemTreeTest {
    @TempDir
    Path tmp;
    final FileSystemTree tree = new FileSystemTree();

    @Test
    void listsWithoutFollowingSymlinksAndHashesContent() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("dir/sub"));
        Files.writeString(dir.resolve("abc.txt"), "abc");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "s");
        Files.createSymbolicLink(dir.resolve("link"), outside);
        Path root = dir.getParent();

        List<LocalTree.Entry> entries = tree.list(root);

        assertThat(entries).extracting(e -> root.relativize(e.path()).toString(), LocalTree.Entry::type,
                LocalTree.Entry::bytes).containsExactly(
                tuple("sub", EntryType.DIRECTORY, 0L),
                tuple("sub/abc.txt", EntryType.FILE, 3L),
                tuple("sub/link", EntryType.SYMLINK, 0L));
        assertThat(tree.sha256(dir.resolve("abc.txt")))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(tree.typeOf(dir.resolve("link"))).isEqualTo(EntryType.SYMLINK);
        assertThat(tree.typeOf(tmp.resolve("none"))).isEqualTo(EntryType.MISSING);
        assertThat(tree.fingerprint(root)).isEqualTo(DirectoryFingerprint.of(root).sha256());
        assertThat(tree.realPath(dir.resolve("link"))).isEqualTo(outside.toRealPath());
    }
}
