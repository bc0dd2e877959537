package io.stowage.provideradapter.release;

import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.ReleaseResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A mount point anywhere under the target refuses the release before anything is touched: by device id (an
 * injected lookup, and a real tmpfs when the machine lets us mount one) and by the mount table (a real bind mount
 * of the same filesystem, which has the same device id).
 */
class MountPointTest {
    @TempDir
    Path tmp;
    Path vol;
    Path dir;
    Path other;

    @BeforeEach
    void setUp() throws IOException {
        vol = tmp.resolve("vol");
        dir = vol.resolve("data/speech");
        Files.createDirectories(dir.resolve("a/mnt"));
        Files.writeString(dir.resolve("a/1.wav"), "one");
        other = Files.createDirectories(tmp.resolve("other-volume"));
        Files.writeString(other.resolve("precious.bin"), "another volume's data");
    }

    void refusedAndUntouched(LocalDiskProvider provider, ApprovedRelease approved, String... reason) throws IOException {
        Map<String, String> before = Approvals.snapshot(tmp);

        ReleaseResult result = provider.release(approved);

        assertThat(result.released()).isFalse();
        assertThat(result.reason()).contains(reason).endsWith("nothing deleted");
        assertThat(Approvals.snapshot(tmp)).isEqualTo(before);
    }

    @Test
    void aSubdirectoryOnAnotherDeviceRefusesByItsDeviceId() throws IOException {
        Path mnt = dir.resolve("a/mnt");
        MountGuard.DeviceLookup devices = p -> p.equals(mnt) ? "dev-2" : "dev-1";
        LocalDiskProvider provider = new LocalDiskProvider(Approvals.policy(vol), new MountGuard(devices, List::of));

        refusedAndUntouched(provider, Approvals.of(dir), "mount-point: " + dir + " holds 1 mount point(s): "
                + "a/mnt (device dev-2, not dev-1)");
    }

    @Test
    void aMountTableEntryUnderTheTargetRefusesEvenOnTheSameDevice() throws IOException {
        MountGuard table = new MountGuard(p -> "dev-1", () -> List.of(Path.of("/proc"), dir.resolve("a/mnt")));
        LocalDiskProvider provider = new LocalDiskProvider(Approvals.policy(vol), table);

        refusedAndUntouched(provider, Approvals.of(dir), "a/mnt (in the mount table)");
    }

    @Test
    void theSameTreeWithoutAMountIsReleased() {
        LocalDiskProvider provider = new LocalDiskProvider(Approvals.policy(vol),
                new MountGuard(p -> "dev-1", List::of));

        assertThat(provider.release(Approvals.of(dir)).released()).isTrue();
    }

    @Test
    void aRealTmpfsMountedUnderTheTargetRefusesAndItsFilesStay() throws Exception {
        Path mnt = dir.resolve("a/mnt");
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=1m", "stowage-test", mnt.toString()),
                "mounting a tmpfs needs CAP_SYS_ADMIN, not available here");
        try {
            Files.writeString(mnt.resolve("on-tmpfs.bin"), "mounted data");
            ApprovedRelease approved = Approvals.of(dir); // the gate saw the mounted file too

            ReleaseResult result = new LocalDiskProvider(Approvals.policy(vol)).release(approved);

            assertThat(result.reason()).contains("mount-point:", "a/mnt (device ").endsWith("nothing deleted");
            assertThat(mnt.resolve("on-tmpfs.bin")).hasContent("mounted data");
            assertThat(dir.resolve("a/1.wav")).hasContent("one");
        } finally {
            run("umount", mnt.toString());
        }
    }

    @Test
    void aRealBindMountOfAnotherDirectoryUnderTheTargetRefusesAndItsFilesStay() throws Exception {
        Path mnt = dir.resolve("a/mnt");
        assumeTrue(run("mount", "--bind", other.toString(), mnt.toString()),
                "bind mounts need CAP_SYS_ADMIN, not available here");
        try {
            ApprovedRelease approved = Approvals.of(dir); // the gate saw precious.bin through the bind mount

            ReleaseResult result = new LocalDiskProvider(Approvals.policy(vol)).release(approved);

            assertThat(result.reason()).contains("mount-point:", "a/mnt").endsWith("nothing deleted");
            assertThat(other.resolve("precious.bin")).hasContent("another volume's data");
            assertThat(dir.resolve("a/1.wav")).hasContent("one");
        } finally {
            run("umount", mnt.toString());
        }
    }

    static boolean run(String... command) throws IOException, InterruptedException {
        return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor() == 0;
    }
}
