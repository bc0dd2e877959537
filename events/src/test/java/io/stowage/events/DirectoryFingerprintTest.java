package io.stowage.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import static org.assertj.core.api.Assertions.assertThat;

class DirectoryFingerprintTest {
    @TempDir
    Path dir;

    @Test
    void isStableAndChangesWhenAnythingIsAddedChangedOrLinked() throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("a.txt"), "alpha");
        Files.writeString(dir.resolve("sub/b.txt"), "beta!");
        DirectoryFingerprint before = DirectoryFingerprint.of(dir);
        assertThat(DirectoryFingerprint.of(dir)).isEqualTo(before);
        assertThat(before.fileCount()).isEqualTo(2);
        assertThat(before.totalBytes()).isEqualTo(10);
        assertThat(before.symlinkCount()).isZero();

        Files.writeString(dir.resolve("sub/b.txt"), "BETA!");
        Files.setLastModifiedTime(dir.resolve("sub/b.txt"), FileTime.fromMillis(1_000));
        DirectoryFingerprint changed = DirectoryFingerprint.of(dir);
        assertThat(changed.sha256()).isNotEqualTo(before.sha256());

        Files.writeString(dir.resolve("c.txt"), "");
        DirectoryFingerprint added = DirectoryFingerprint.of(dir);
        assertThat(added.sha256()).isNotEqualTo(changed.sha256());
        assertThat(added.fileCount()).isEqualTo(3);

        Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc"));
        assertThat(DirectoryFingerprint.of(dir).symlinkCount()).isEqualTo(1);
    }
}
