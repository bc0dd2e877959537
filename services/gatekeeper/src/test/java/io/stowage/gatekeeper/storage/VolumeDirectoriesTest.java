package io.stowage.gatekeeper.storage;

import io.stowage.events.ReleaseTargetPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VolumeDirectoriesTest {
    @TempDir
    Path tmp;

    @Test
    void listsOnlyDirectoriesAReleaseMayNameWithTheirFilesAndBytesAndNeverFollowsASymlink() throws Exception {
        Path hot = Files.createDirectories(tmp.resolve("hot"));
        Path run = Files.createDirectories(hot.resolve("checkpoints/e/run-1"));
        Path step = Files.createDirectories(run.resolve("step-50"));
        Files.write(step.resolve("model.pt"), new byte[100]);
        Files.write(run.resolve("train.log"), new byte[7]);
        Path outside = Files.createDirectories(tmp.resolve("elsewhere/deep"));
        Files.write(outside.resolve("big.bin"), new byte[1000]);
        Files.createSymbolicLink(hot.resolve("checkpoints/e/link"), outside);
        ReleaseTargetPolicy policy = ReleaseTargetPolicy.of(List.of(hot.toString(), hot.resolve("checkpoints").toString()),
                List.of(hot.toString()), tmp.resolve("home").toString());

        List<VolumeDirectories.Entry> listed = new VolumeDirectories(policy).list();

        assertThat(listed).extracting(VolumeDirectories.Entry::path)
                .containsExactly(hot.resolve("checkpoints/e").toString(), run.toString(), step.toString());
        assertThat(listed.get(1)).isEqualTo(new VolumeDirectories.Entry(run.toString(), hot.toString(), 2, 107));
        assertThat(listed.get(0).bytes()).as("the symlinked directory's files are not counted").isEqualTo(107);
    }

    @Test
    void aMissingVolumeRootListsNothing() {
        ReleaseTargetPolicy policy = ReleaseTargetPolicy.of(List.of(), List.of(tmp.resolve("absent").toString()), "/root");

        assertThat(new VolumeDirectories(policy).list()).isEmpty();
    }
}
