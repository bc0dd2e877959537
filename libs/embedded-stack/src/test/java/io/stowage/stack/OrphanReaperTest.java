package io.stowage.stack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OrphanReaperTest {
    @TempDir
    Path dir;

    @Test
    void aPidNoLongerTrackedIsNeverSignalled() throws Exception {
        try (OrphanReaper reaper = OrphanReaper.watch(dir)) {
            reaper.track(101);
            reaper.track(102);

            reaper.trackOnly(List.of(102L, 205L)); // 101 ended: the system may give its pid to another process

            assertThat(Files.readAllLines(dir.resolve(OrphanReaper.PID_FILE))).containsExactly("102", "205");
            assertThat(dir.resolve(OrphanReaper.PID_FILE + ".next")).doesNotExist();
        }
    }
}
