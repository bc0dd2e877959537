package io.stowage.provideradapter.release;

import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.ReleaseResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The second step of a local release on the real disk: after the rename aside, exactly the approved files are
 * deleted; a file added or changed in between (a writer that still holds the directory open) is kept, named, and
 * moved back to the original path, or left under the hidden name when that path was taken again.
 */
class RenameAsideTest {
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
    void theApprovedDirectoryIsRenamedToItsHiddenSiblingThenRemovedWhole() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Path aside = approved.asideFor("req-7");

        assertThat(provider.refusal(approved)).isEmpty();
        ReleaseResult result = provider.finish(approved, aside);

        assertThat(aside).isEqualTo(vol.resolve("data/.stowage-releasing-req-7"));
        assertThat(result).isEqualTo(ReleaseResult.released(3, 8));
        assertThat(dir).doesNotExist();
        assertThat(aside).doesNotExist();
        assertThat(vol.resolve("data")).isEmptyDirectory();
    }

    @Test
    void aFileAddedAndAFileChangedAfterTheRenameStopTheDeletionAndAllIsMovedBack() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Path aside = approved.asideFor("req-8");
        assertThat(provider.refusal(approved)).isEmpty();
        Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(aside.resolve("a/b/late.wav"), "late");
        Files.writeString(aside.resolve("a/1.wav"), "ONE");

        ReleaseResult result = provider.finish(approved, aside);

        assertThat(result.released()).isFalse();
        assertThat(result.fileCount()).isZero();
        assertThat(result.reason()).contains("changed since the gate passed (found once renamed aside)",
                "added a/b/late.wav", "changed a/1.wav (bytes 3->3, sha256 ", "nothing deleted, moved back to " + dir);
        assertThat(aside).doesNotExist();
        assertThat(dir.resolve("a/b/late.wav")).hasContent("late");
        assertThat(dir.resolve("a/1.wav")).hasContent("ONE");
        assertThat(dir.resolve("a/b/2.wav")).as("approved, but all or none").hasContent("two!");
        assertThat(dir.resolve("meta.txt")).hasContent("m");
    }

    @Test
    void whatIsKeptStaysUnderTheHiddenNameWhenTheOriginalPathWasTakenAgain() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Path aside = approved.asideFor("req-9");
        Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(aside.resolve("new.txt"), "new");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("other.txt"), "someone else's");

        ReleaseResult result = provider.finish(approved, aside);

        assertThat(result.reason()).contains("added new.txt", "nothing deleted, left at " + aside + " because " + dir
                + " exists again");
        assertThat(aside.resolve("new.txt")).hasContent("new");
        assertThat(dir.resolve("other.txt")).hasContent("someone else's");
        assertThat(aside.resolve("meta.txt")).hasContent("m");
    }

    @Test
    void aSymlinkSwappedInUnderTheRenamedTreeIsKeptAndItsTargetUntouched() throws IOException {
        Path outside = Files.writeString(tmp.resolve("precious.txt"), "precious");
        ApprovedRelease approved = Approvals.of(dir);
        Path aside = approved.asideFor("req-10");
        Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(aside.resolve("meta.txt"));
        Files.createSymbolicLink(aside.resolve("meta.txt"), outside);

        ReleaseResult result = provider.finish(approved, aside);

        assertThat(result.reason()).contains("symlink meta.txt", "nothing deleted, moved back to " + dir);
        assertThat(outside).hasContent("precious");
        assertThat(dir.resolve("meta.txt")).isSymbolicLink();
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
    }

    @Test
    void aDirectoryThatChangedBeforeTheRenameIsNotRenamedAndNothingDeleted() throws IOException {
        ApprovedRelease approved = Approvals.of(dir);
        Files.writeString(dir.resolve("late.txt"), "late");

        ReleaseResult result = provider.finish(approved, approved.asideFor("req-11"));

        assertThat(result.reason()).contains("was not renamed aside", "added late.txt").endsWith("nothing deleted");
        assertThat(dir.resolve("a/1.wav")).hasContent("one");
        assertThat(approved.asideFor("req-11")).doesNotExist();
    }
}
