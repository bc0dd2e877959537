package io.stowage.cli.checkpoint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class StepScannerTest {
    @TempDir
    Path root;

    @Test
    void onlyRenamedStepDirectoriesAndMarkedDirectoriesThatAreNewCount() throws Exception {
        dir("step-000000000002");
        dir("step-000000000001");
        dir(".tmp-step-000000000003");                       // still being written
        Files.writeString(dir(".tmp-step-000000000004").resolve(StepScanner.MARKER), "");  // hidden: ignored even with a marker
        dir("checkpoint-500");                               // written in place, no marker yet
        Files.writeString(dir("checkpoint-600").resolve(StepScanner.MARKER), "");
        Files.writeString(root.resolve("step-000000000007"), "a file, not a directory");
        Files.createSymbolicLink(root.resolve("step-000000000008"), dir(".elsewhere"));
        dir("step-000000000005");

        StepScanner.Scan scan = StepScanner.scan(root, Set.of(5L));

        assertThat(scan.ready()).extracting(StepScanner.Step::step).containsExactly(1L, 2L, 600L);
        assertThat(scan.ready()).extracting(s -> s.dir().getFileName().toString())
                .containsExactly("step-000000000001", "step-000000000002", "checkpoint-600");
        assertThat(scan.skipped()).isEmpty();
    }

    @Test
    void aMarkedDirectoryWithoutANumberOrAStepClaimedTwiceIsSkippedWithAReason() throws Exception {
        Files.writeString(dir("final").resolve(StepScanner.MARKER), "");
        dir("step-9");
        Files.writeString(dir("ckpt-9").resolve(StepScanner.MARKER), "");

        StepScanner.Scan scan = StepScanner.scan(root, Set.of());

        assertThat(scan.ready()).singleElement().satisfies(s -> {
            assertThat(s.step()).isEqualTo(9);
            assertThat(s.dir()).isEqualTo(root.resolve("ckpt-9"));
        });
        assertThat(scan.skipped()).containsExactlyInAnyOrder(
                root.resolve("final") + " holds .stowage-complete but its name ends in no step number",
                root.resolve("step-9") + " claims step 9, already taken by " + root.resolve("ckpt-9"));
    }

    private Path dir(String name) throws Exception {
        return Files.createDirectories(root.resolve(name));
    }
}
