package io.stowage.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the programs a user would check Stowage's output with (GNU tar, zstd, sha256sum) from end-to-end tests. */
public final class ExternalTools {
    private ExternalTools() {
    }

    /**
     * @param dir     working directory of the program
     * @param command the program and its arguments
     * @return its standard output and error, UTF-8; the calling test fails unless it exits 0 within 60 s
     */
    public static String run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }

    /** @return whether {@code program} is an executable file in a directory of {@code PATH} */
    public static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
