package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.VolumeQuota;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@code stowage checkpoint fetch} into a local provider volume refuses bytes past the volume's quota. */
class CheckpointFetcherQuotaTest {
    @TempDir
    Path volumes;

    @Test
    void aFetchThatWouldPassTheVolumesQuotaIsRefusedAndLeavesNoFile() throws Exception {
        byte[] a = new byte[600];
        byte[] b = new byte[500];
        b[0] = 1;
        Map<String, byte[]> objects = Map.of(
                ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(a), "a.pt"), a,
                ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(b), "b.pt"), b);
        CheckpointFetcher.Source source = new CheckpointFetcher.Source() {
            @Override
            public List<String> list(String prefix) {
                return objects.keySet().stream().sorted().toList();
            }

            @Override
            public InputStream open(String key) {
                return new ByteArrayInputStream(objects.get(key));
            }
        };
        Path volume = Files.createDirectories(volumes.resolve("vol-1"));
        VolumeQuota.write(volume, 1000);
        Files.write(volume.resolve("already.bin"), new byte[100]);

        // 100 held + 600 + 500 = 1200 bytes > 1000: refused
        Path to = volume.resolve("restore");
        CliException e = catchThrowableOfType(CliException.class,
                () -> new CheckpointFetcher(source).fetch("e", "r", 4L, to));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).contains("refusing to fetch into " + to, "quota 1000 bytes");
        assertThat(to).as("the refused fetch removes the directory it created").doesNotExist();
        try (Stream<Path> all = Files.list(volume)) {
            assertThat(all.map(p -> p.getFileName().toString())).as("nothing written beside what was there")
                    .doesNotContain("restore").contains("already.bin");
        }

        // with 1200 bytes of quota the same fetch fits exactly
        VolumeQuota.write(volume, 1200);
        assertThat(new CheckpointFetcher(source).fetch("e", "r", 4L, to).files()).hasSize(2);
        assertThat(to.resolve("a.pt")).hasSize(600);
        assertThat(to.resolve("b.pt")).hasSize(500);
    }
}
