package io.stowage.cli.evidence;

import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The export's files appear all at once or not at all, and a directory that is not empty is never touched. */
class EvidenceWriterTest {
    @TempDir
    Path parent;

    @Test
    void writesIntoANewOrAnEmptyDirectoryAndLeavesNoSibling() throws Exception {
        Path fresh = EvidenceWriter.target(parent.resolve("site"));
        EvidenceWriter.write(fresh, files());
        assertThat(Files.readString(fresh.resolve("evidence.json"))).isEqualTo("{}\n");
        assertThat(Files.readString(fresh.resolve("index.html"))).isEqualTo("<p>x</p>\n");

        Path empty = Files.createDirectory(parent.resolve("empty"));
        EvidenceWriter.write(EvidenceWriter.target(empty), files());
        assertThat(Files.readString(empty.resolve("evidence.json"))).isEqualTo("{}\n");
        assertThat(list(parent)).containsExactlyInAnyOrder("site", "empty");
    }

    @Test
    void aNonEmptyDirectoryOrAFileIsRefusedWithExit2AndLeftUnchanged() throws Exception {
        Path full = Files.createDirectory(parent.resolve("full"));
        Files.writeString(full.resolve("keep.txt"), "mine\n");
        Path file = Files.writeString(parent.resolve("a-file"), "also mine\n");

        for (Path target : List.of(full, file)) {
            assertThatThrownBy(() -> EvidenceWriter.target(target)).isInstanceOfSatisfying(CliException.class, e -> {
                assertThat(e.exitCode()).isEqualTo(CliException.USAGE);
                assertThat(e.getMessage()).contains("exists and is not an empty directory").doesNotContain("\n");
            });
        }
        assertThat(list(full)).containsExactly("keep.txt");
        assertThat(Files.readString(full.resolve("keep.txt"))).isEqualTo("mine\n");
        assertThat(Files.readString(file)).isEqualTo("also mine\n");
        assertThat(list(parent)).containsExactlyInAnyOrder("full", "a-file");
    }

    @Test
    void aFileThatCannotBeWrittenLeavesNeitherTheTargetNorTheSibling() {
        Path target = EvidenceWriter.target(parent.resolve("site"));
        Map<String, String> files = files();
        files.put("missing-dir/third.txt", "cannot be created\n");

        assertThatThrownBy(() -> EvidenceWriter.write(target, files)).isInstanceOfSatisfying(CliException.class,
                e -> assertThat(e.exitCode()).isEqualTo(CliException.FAILED));
        assertThat(list(parent)).isEmpty();
    }

    @Test
    void aMissingParentIsBadInput() {
        assertThatThrownBy(() -> EvidenceWriter.target(parent.resolve("no/such/site"))).isInstanceOfSatisfying(
                CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE));
    }

    private static Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("evidence.json", "{}\n");
        files.put("index.html", "<p>x</p>\n");
        return files;
    }

    private static List<String> list(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
