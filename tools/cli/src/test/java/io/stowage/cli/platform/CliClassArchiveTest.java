package io.stowage.cli.platform;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class archive's name is what the {@code ./stowage} script computes ({@code stat -c %Y-%s} of the jar), so that
 * the archive {@code stowage up} writes is the one the script passes, and a rebuilt jar (new time or size) gets a new
 * name; a CLI run from classes rather than the jar writes none.
 */
class CliClassArchiveTest {
    @TempDir
    Path dir;

    @Test
    void theArchiveIsNamedAsTheScriptNamesItAndChangesWithTheJar() throws Exception {
        Path jar = dir.resolve("stowage-cli.jar");
        Files.writeString(jar, "not really a jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-12-05T04:00:00.750Z")));
        StowageHome home = new StowageHome(dir.resolve("home"));

        Process stat = new ProcessBuilder("stat", "-c", "%Y-%s", jar.toString()).start();
        String script = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(stat.waitFor()).isZero();

        Path archive = CliClassArchive.archiveFor(home, jar);
        assertThat(archive).isEqualTo(dir.resolve("home/class-archive/stowage-cli-" + script + ".jsa"));
        assertThat(archive.getFileName().toString()).isEqualTo("stowage-cli-1796443200-16.jsa");

        Files.writeString(jar, "a rebuilt jar, same second");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-12-05T04:00:00.900Z")));
        assertThat(CliClassArchive.archiveFor(home, jar)).isNotEqualTo(archive);
    }

    @Test
    void aCliRunFromClassesWritesNoArchive() {
        assertThat(CliClassArchive.runningJar()).isEmpty();
        assertThat(CliClassArchive.writeInBackground(new StowageHome(dir.resolve("home")))).isEmpty();
        assertThat(dir.resolve("home/class-archive")).doesNotExist();
    }
}
