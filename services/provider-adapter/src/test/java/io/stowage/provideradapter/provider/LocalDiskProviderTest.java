package io.stowage.provideradapter.provider;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.ProtectedRoots;
import io.stowage.provideradapter.domain.ReleaseResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The local-disk release on a real temporary directory. */
class LocalDiskProviderTest {
    @TempDir
    Path tmp;
    Path dir;
    LocalDiskProvider provider;

    @BeforeEach
    void setUp() throws IOException {
        dir = tmp.resolve("vol/data/speech");
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/1.wav"), "one");
        Files.writeString(dir.resolve("a/b/2.wav"), "two!");
        Files.writeString(dir.resolve("meta.txt"), "m");
        provider = new LocalDiskProvider(ProtectedRoots.parse(List.of(tmp.resolve("vol").toString())));
    }

    String gateFingerprint() throws IOException {
        return DirectoryFingerprint.of(dir).sha256();
    }

    @Test
    void deletesTheApprovedDirectoryAndNothingBeside() throws IOException {
        Path sibling = Files.writeString(tmp.resolve("vol/data/keep.txt"), "keep");

        ReleaseResult result = provider.release(dir, gateFingerprint());

        assertThat(result).isEqualTo(ReleaseResult.released(3, 8));
        assertThat(dir).doesNotExist();
        assertThat(dir.getParent()).isDirectory();
        assertThat(sibling).hasContent("keep");
    }

    @Test
    void aFileAddedAfterTheGateIsRefusedAndNothingDeleted() throws IOException {
        String fingerprint = gateFingerprint();
        Files.writeString(dir.resolve("a/late.wav"), "late");

        ReleaseResult result = provider.release(dir, fingerprint);

        assertThat(result.released()).isFalse();
        assertThat(result.reason()).contains("changed since the gate", "nothing deleted");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
        assertThat(dir.resolve("a/b/2.wav")).hasContent("two!");
        assertThat(dir.resolve("a/late.wav")).hasContent("late");
    }

    @Test
    void aChangedFileIsRefused() throws IOException {
        String fingerprint = gateFingerprint();
        Path file = dir.resolve("a/1.wav");
        FileTime before = Files.getLastModifiedTime(file);
        Files.writeString(file, "ONE");
        Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 2000));

        ReleaseResult result = provider.release(dir, fingerprint);

        assertThat(result.released()).isFalse();
        assertThat(file).hasContent("ONE");
        assertThat(dir.resolve("meta.txt")).hasContent("m");
    }

    @Test
    void aSymlinkPointingOutsideIsRefusedAndItsTargetUntouched() throws IOException {
        Path outside = Files.writeString(tmp.resolve("precious.txt"), "precious");
        Files.createSymbolicLink(dir.resolve("a/link"), outside);

        ReleaseResult result = provider.release(dir, gateFingerprint());

        assertThat(result.released()).isFalse();
        assertThat(result.reason()).contains("1 symlink(s)");
        assertThat(outside).hasContent("precious");
        assertThat(dir.resolve("a/link")).isSymbolicLink();
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void aDirectoryReachedThroughASymlinkIsRefused() throws IOException {
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), dir.getParent());
        Path viaAlias = alias.resolve("speech");

        ReleaseResult result = provider.release(viaAlias, DirectoryFingerprint.of(viaAlias).sha256());

        assertThat(result.reason()).contains("goes through a symlink");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void theDirectoryItselfBeingASymlinkIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("link-to-speech"), dir);

        ReleaseResult result = provider.release(link, gateFingerprint());

        assertThat(result.reason()).contains("not a directory");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void protectedRootsTheirAncestorsAndSlashAreRefused() throws IOException {
        String fingerprint = gateFingerprint();
        LocalDiskProvider guarded = new LocalDiskProvider(ProtectedRoots.parse(List.of(dir.toString())));

        assertThat(guarded.release(dir, fingerprint).reason()).contains("protected root");
        assertThat(guarded.release(dir.getParent(), DirectoryFingerprint.of(dir.getParent()).sha256()).reason())
                .contains("protected root");
        assertThat(guarded.release(Path.of("/"), "0".repeat(64)).reason()).contains("protected root");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void aPathThatIsNotNormalisedIsRefused() throws IOException {
        ReleaseResult result = provider.release(dir.resolve("../speech"), gateFingerprint());

        assertThat(result.reason()).contains("not absolute and normalised");
        assertThat(dir).isDirectory();
    }

    @Test
    void aRedeliveredReleaseFindsTheDirectoryAlreadyGone() throws IOException {
        String fingerprint = gateFingerprint();
        assertThat(provider.release(dir, fingerprint).released()).isTrue();

        ReleaseResult again = provider.release(dir, fingerprint);

        assertThat(again.released()).isFalse();
        assertThat(again.reason()).startsWith("already gone");
    }
}
