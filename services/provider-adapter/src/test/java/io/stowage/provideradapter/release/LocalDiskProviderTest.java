package io.stowage.provideradapter.release;

import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.provideradapter.domain.ApprovedRelease;
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

/** The local-disk release on a real temporary directory: the re-inventory just before deleting. */
class LocalDiskProviderTest {
    @TempDir
    Path tmp;
    Path vol;
    Path dir;
    LocalDiskProvider provider;

    @BeforeEach
    void setUp() throws IOException {
        vol = tmp.resolve("vol");
        dir = vol.resolve("data/speech");
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/1.wav"), "one");
        Files.writeString(dir.resolve("a/b/2.wav"), "two!");
        Files.writeString(dir.resolve("meta.txt"), "m");
        provider = new LocalDiskProvider(Approvals.policy(vol));
    }

    @Test
    void deletesTheApprovedDirectoryAndNothingBeside() throws IOException {
        Path sibling = Files.writeString(vol.resolve("data/keep.txt"), "keep");

        ReleaseResult result = provider.release(Approvals.of(dir));

        assertThat(result).isEqualTo(ReleaseResult.released(3, 8));
        assertThat(dir).doesNotExist();
        assertThat(dir.getParent()).isDirectory();
        assertThat(sibling).hasContent("keep");
    }

    @Test
    void aFileAddedAfterTheGateIsNamedAndNothingDeleted() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Files.writeString(dir.resolve("a/late.wav"), "late");

        ReleaseResult result = provider.release(approved);

        assertThat(result.released()).isFalse();
        assertThat(result.reason()).contains("changed since the gate", "added a/late.wav").endsWith("nothing deleted");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
        assertThat(dir.resolve("a/b/2.wav")).hasContent("two!");
        assertThat(dir.resolve("a/late.wav")).hasContent("late");
    }

    @Test
    void aFileRemovedAfterTheGateIsNamed() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Files.delete(dir.resolve("meta.txt"));

        ReleaseResult result = provider.release(approved);

        assertThat(result.reason()).contains("removed meta.txt").endsWith("nothing deleted");
        assertThat(dir.resolve("a/b/2.wav")).hasContent("two!");
    }

    @Test
    void aFileRewrittenWithTheSameSizeAndModificationTimeIsCaughtByItsHash() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Path file = dir.resolve("a/1.wav");
        FileTime mtime = Files.getLastModifiedTime(file);
        Files.writeString(file, "ONE");
        Files.setLastModifiedTime(file, mtime);

        ReleaseResult result = provider.release(approved);

        assertThat(result.released()).isFalse();
        assertThat(result.reason()).contains("changed a/1.wav (bytes 3->3, sha256 ");
        assertThat(file).hasContent("ONE");
        assertThat(dir.resolve("meta.txt")).hasContent("m");
    }

    @Test
    void anEmptyDirectoryAddedAfterTheGateChangesTheFingerprint() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Files.createDirectory(dir.resolve("new-empty"));

        ReleaseResult result = provider.release(approved);

        assertThat(result.reason()).contains("fingerprint").endsWith("nothing deleted");
        assertThat(dir.resolve("new-empty")).isDirectory();
    }

    @Test
    void aSymlinkPointingOutsideIsRefusedAndItsTargetUntouched() throws IOException {
        Path outside = Files.writeString(tmp.resolve("precious.txt"), "precious");
        Files.createSymbolicLink(dir.resolve("a/link"), outside);

        ReleaseResult result = provider.release(Approvals.of(dir));

        assertThat(result.released()).isFalse();
        assertThat(result.reason()).contains("1 symlink(s): a/link");
        assertThat(outside).hasContent("precious");
        assertThat(dir.resolve("a/link")).isSymbolicLink();
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void aDirectoryReachedThroughASymlinkIsRefused() throws IOException {
        Path alias = Files.createSymbolicLink(vol.resolve("alias"), dir.getParent());

        ReleaseResult result = provider.release(Approvals.of(alias.resolve("speech")));

        assertThat(result.reason()).contains("goes through a symlink");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void protectedRootsHomesVolumeRootsAndPathsOutsideAreRefused() throws IOException {
        LocalDiskProvider guarded = new LocalDiskProvider(ReleaseTargetPolicy.of(List.of(dir.toString()),
                List.of(vol.toString()), null));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));

        assertThat(guarded.release(Approvals.of(dir)).reason()).startsWith("protected-root");
        assertThat(guarded.release(Approvals.of(dir.getParent())).reason()).startsWith("protected-root");
        assertThat(guarded.release(Approvals.of(Path.of("/"))).reason()).startsWith("protected-root");
        assertThat(provider.release(Approvals.of(vol)).reason()).startsWith("volume-root");
        assertThat(provider.release(Approvals.of(elsewhere)).reason()).startsWith("outside-volume-roots");
        assertThat(provider.release(Approvals.of(Path.of("/root"))).reason()).startsWith("home-directory");
        assertThat(provider.release(Approvals.of(Path.of("/home/alice"))).reason()).startsWith("home-directory");
        assertThat(new LocalDiskProvider(ReleaseTargetPolicy.of(List.of(), List.of(), null)).release(Approvals.of(dir))
                .reason()).startsWith("outside-volume-roots");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
        assertThat(elsewhere).isDirectory();
    }

    @Test
    void aRedeliveredReleaseFindsTheDirectoryAlreadyGone() {
        ApprovedRelease approved = Approvals.of(dir);
        assertThat(provider.release(approved).released()).isTrue();

        ReleaseResult again = provider.release(approved);

        assertThat(again.released()).isFalse();
        assertThat(again.reason()).startsWith("already gone");
    }
}
