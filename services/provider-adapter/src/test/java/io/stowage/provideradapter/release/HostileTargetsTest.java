package io.stowage.provideradapter.release;

import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.ReleaseResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Hostile release targets on a real temporary directory: each is refused with a reason, and every
 * entry of the temp tree (volume, workspace, the "outside" directory) and /etc/passwd are as before.
 */
class HostileTargetsTest {
    @TempDir
    Path tmp;
    Path vol;
    Path dataset;
    Path data;
    Path outside;
    LocalDiskProvider provider;
    String passwd;

    @BeforeEach
    void setUp() throws IOException {
        vol = Files.createDirectories(tmp.resolve("vol"));
        Files.createDirectories(tmp.resolve("ws"));
        dataset = vol.resolve("data/speech");
        data = Files.createDirectories(dataset.resolve("a"));
        Files.writeString(data.resolve("1.wav"), "one");
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0");
        provider = new LocalDiskProvider(Approvals.policy(vol));
        passwd = Files.readString(Path.of("/etc/passwd"));
    }

    /** Releases with {@code approved} and asserts it was refused for {@code reason} with nothing on disk changed. */
    void refusedAndUntouched(ApprovedRelease approved, String reason) throws IOException {
        Map<String, String> before = Approvals.snapshot(tmp);

        ReleaseResult result = provider.release(approved);

        assertThat(result.released()).as("release of %s", approved.dir()).isFalse();
        assertThat(result.reason()).contains(reason).endsWith("nothing deleted");
        assertThat(Approvals.snapshot(tmp)).isEqualTo(before);
        assertThat(outside.resolve("passwd")).hasContent("root:x:0:0");
        assertThat(Path.of("/etc/passwd")).hasContent(passwd);
    }

    void refusedAndUntouched(Path target, String reason) throws IOException {
        refusedAndUntouched(Approvals.of(target), reason);
    }

    @Test
    void dotDotUp() throws IOException {
        refusedAndUntouched(Path.of("../"), "not-normalised");
        refusedAndUntouched(vol.resolve("data/speech/../../data"), "not-normalised");
    }

    @Test
    void theFilesystemRoot() throws IOException {
        refusedAndUntouched(Path.of("/"), "protected-root");
    }

    @Test
    void aDotDotThatClimbsOutOfTheVolume() throws IOException {
        refusedAndUntouched(Path.of("a/../../x"), "not-normalised");
        refusedAndUntouched(Path.of(vol + "/data/speech/a/../../../../outside"), "not-normalised");
    }

    @Test
    void threeDotsThenDot() throws IOException {
        Files.createDirectories(vol.resolve("data/.../x"));
        refusedAndUntouched(Path.of("..././x"), "not-normalised");
        refusedAndUntouched(vol.resolve("data/..././x"), "not-normalised");
    }

    @Test
    void aSymlinkToEtc() throws IOException {
        Path link = Files.createSymbolicLink(vol.resolve("data/etc"), Path.of("/etc"));

        refusedAndUntouched(new ApprovedRelease(link, Approvals.ANY, Approvals.ANY, java.util.List.of()), "not a directory");
        refusedAndUntouched(Approvals.of(link.resolve("ssl")), "goes through a symlink");
    }

    @Test
    void aFileTheGateSawSwappedForASymlinkOfTheSameName() throws IOException {
        ApprovedRelease gateSaw = Approvals.of(dataset);
        Files.delete(data.resolve("1.wav"));
        Files.createSymbolicLink(data.resolve("1.wav"), outside.resolve("passwd"));

        refusedAndUntouched(gateSaw, "1 symlink(s): a/1.wav");
    }

    @Test
    void aSymlinkThenARegularFileOfTheSameName() throws IOException {
        ApprovedRelease gateSaw = Approvals.of(dataset);
        Files.delete(data.resolve("1.wav"));
        Files.createSymbolicLink(data.resolve("1.wav"), outside.resolve("passwd"));
        Files.delete(data.resolve("1.wav"));
        Files.writeString(data.resolve("1.wav"), "ONE");

        refusedAndUntouched(gateSaw, "changed a/1.wav");

        // the approved directory itself swapped for a symlink, then for a regular file of the same name
        Path moved = Files.move(dataset, vol.resolve("data/moved"));
        Files.createSymbolicLink(dataset, moved);
        refusedAndUntouched(gateSaw, "not a directory");
        Files.delete(dataset);
        Files.writeString(dataset, "a file now");
        refusedAndUntouched(gateSaw, "not a directory");
    }

    @Test
    void aFifoAsTargetAndAsEntry() throws Exception {
        Path fifo = data.resolve("pipe");
        assumeTrue(mkfifo(fifo), "mkfifo is not available on this machine");

        refusedAndUntouched(fifo, "not a directory");
        refusedAndUntouched(dataset, "1 special file(s) (FIFO, device or socket): a/pipe");
    }

    @Test
    void theVolumeRootByAnotherPath() throws IOException {
        Path alias = Files.createSymbolicLink(tmp.resolve("vol-alias"), vol);
        Path parentLoop = Files.createSymbolicLink(vol.resolve("data/up"), tmp);
        LocalDiskProvider configuredThroughALink = new LocalDiskProvider(Approvals.policy(alias));
        Map<String, String> before = Approvals.snapshot(tmp);

        assertThat(configuredThroughALink.release(Approvals.of(vol)).reason())
                .contains("volume-root", "nothing deleted");
        assertThat(configuredThroughALink.release(Approvals.of(tmp)).reason()).contains("protected-root", "nothing deleted");
        assertThat(Approvals.snapshot(tmp)).isEqualTo(before);
        refusedAndUntouched(parentLoop.resolve("vol"), "goes through a symlink");
        refusedAndUntouched(alias, "outside-volume-roots");
        refusedAndUntouched(vol, "volume-root");
    }

    @Test
    void aBindMountOfTheVolumeRootUnderItself() throws Exception {
        Path bind = Files.createDirectories(vol.resolve("data/bind"));
        Process mount = new ProcessBuilder("mount", "--bind", vol.toString(), bind.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mount.waitFor() == 0, "bind mounts need CAP_SYS_ADMIN, not available here");
        try {
            refusedAndUntouched(bind, "root-by-another-path");
        } finally {
            new ProcessBuilder("umount", bind.toString()).start().waitFor();
        }
    }

    @Test
    void theWorkspaceAHomeAndAPathOutsideTheVolumes() throws IOException {
        Files.createDirectories(tmp.resolve("home"));
        refusedAndUntouched(tmp.resolve("ws"), "protected-root");
        refusedAndUntouched(tmp.resolve("home"), "home-directory");
        refusedAndUntouched(outside, "outside-volume-roots");
    }

    static boolean mkfifo(Path path) {
        try {
            Process process = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            return process.waitFor() == 0 && Files.readAttributes(path, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS).isOther();
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
