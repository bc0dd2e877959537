package io.stowage.cli.platform;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

/** How {@code stowage status} tells a standby provider-adapter from the active one: who holds {@code active.lock}. */
class LockHolderTest {

    @Test
    void theProcessHoldingTheFilesLockIsFoundInTheKernelsTableAndNoneOnceReleased(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("active.lock");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.lock();
            assertThat(ServiceHealth.lockHolder(file, Path.of("/proc/locks"))).contains(ProcessHandle.current().pid());
            lock.release();
            assertThat(ServiceHealth.lockHolder(file, Path.of("/proc/locks"))).isEmpty();
        }
    }

    @Test
    void aWaiterLineIsNotTakenForTheHolderAndAnotherInodeIsIgnored(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("active.lock"));
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        Path table = Files.writeString(dir.resolve("locks"), String.join("\n",
                "1: POSIX  ADVISORY  WRITE 111 fd:00:" + (inode + 1) + " 0 EOF",
                "2: POSIX  ADVISORY  WRITE 222 fd:00:" + inode + " 0 EOF",
                "2: -> POSIX  ADVISORY  WRITE 333 fd:00:" + inode + " 0 EOF") + "\n");
        assertThat(ServiceHealth.lockHolder(file, table)).contains(222L);
        assertThat(ServiceHealth.lockHolder(dir.resolve("missing"), table)).isEmpty();
    }

    @Test
    void onlyAnAliveInstanceOfAStandbyServiceWhoseLockAnotherHoldsIsAStandby(@TempDir Path state) throws Exception {
        Path lockFile = Files.createDirectories(state.resolve("provider-adapter")).resolve("active.lock");
        long me = ProcessHandle.current().pid();
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            Process other = new ProcessBuilder("sleep", "30").start();
            try {
                assertThat(ServiceHealth.standby("provider-adapter-2", other.pid(), state)).isTrue();
                assertThat(ServiceHealth.standby("provider-adapter", me, state)).as("the holder is active").isFalse();
                assertThat(ServiceHealth.standby("uploader-2", other.pid(), state)).as("not a standby service").isFalse();
            } finally {
                other.destroyForcibly().waitFor();
            }
            assertThat(ServiceHealth.standby("provider-adapter-2", other.pid(), state)).as("exited").isFalse();
        }
        assertThat(ServiceHealth.standby("provider-adapter-2", me, state)).as("nobody holds the lock").isFalse();
    }
}
